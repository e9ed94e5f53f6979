import supertest from 'supertest'
import { describe, expect, it } from 'vitest'
import { User } from '../src/kernel/models/index.js'
import { jar } from './helpers/cookies.js'
import { mailTo } from './helpers/mail.js'
import { askForMail, emailSignInApi } from './helpers/passwordless.js'
import { me } from './helpers/requests.js'
import { makeUser, uniqueEmail, useTestApps, withCookies } from './helpers/test-app.js'

const t = useTestApps()

describe('sign-up by e-mail, off (the default)', () => {
  it('an address without an account is mailed nothing and gets no account; its code and link are 422', async () => {
    const { app } = await t.build()
    const api = emailSignInApi(app)
    const mail = await t.mailServer()
    const unknown = uniqueEmail('newcomer')
    const known = await makeUser()
    expect((await api.ask({ email: unknown })).status).toBe(202)
    expect((await api.ask({ email: known.email })).status).toBe(202)
    await mail.waitFor(mailTo(known.email))
    expect(mail.received.some(mailTo(unknown))).toBe(false)
    expect((await api.verify({ email: unknown, code: '123456' })).status).toBe(422)
    expect(await User.count({ where: { email: unknown } })).toBe(0)
  })
})

describe.each([false, true])('sign-up by e-mail, on (PASSWORDLESS_SIGN_UP=true; requireEmailVerification: %s)', (requireEmailVerification) => {
  it('the first use of the mail makes the account: verified by that use, no password, e-mail its one way in', async () => {
    const { app } = await t.build({ env: { PASSWORDLESS_SIGN_UP: 'true' }, auth: { requireEmailVerification } })
    const email = uniqueEmail('newcomer')
    const asked = await askForMail(app, await t.mailServer(), email)
    expect(asked.mail.subject).toBe('Finish signing up')
    expect(await User.count({ where: { email } })).toBe(0)

    const res = await emailSignInApi(app).verify({ email, code: asked.code }, asked.cookies)
    expect(res.status, JSON.stringify(res.body)).toBe(200)
    expect(res.body.user).toMatchObject({ email, name: email.split('@')[0], role: 'user' })
    expect(res.body.user.emailVerifiedAt).not.toBeNull()
    const user = await User.findOne({ where: { email } })
    expect(user?.password).toBeNull()
    const cookies = jar(res, asked.cookies)
    expect((await me(app, cookies).expect(200)).body.user.id).toBe(user!.id)
    // Its address is how it confirms it's you, too.
    expect((await supertest(app).get('/api/account/confirm').set(withCookies(cookies))).body.methods).toEqual(['email'])

    // And how it signs in again.
    await supertest(app).post('/api/auth/logout').set(withCookies(cookies)).expect(204)
    const again = await askForMail(app, await t.mailServer(), email)
    expect(again.mail.subject).toBe('Your sign-in link')
    expect((await emailSignInApi(app).verify({ token: again.token }, again.cookies)).status).toBe(200)
    expect(await User.count({ where: { email } })).toBe(1)
  })
})
