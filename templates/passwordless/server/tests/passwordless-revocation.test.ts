import supertest from 'supertest'
import { beforeAll, describe, expect, it } from 'vitest'
import { EmailSignIn } from '../src/features/passwordless/models/email-sign-in.js'
import { linkIn, mailTo } from './helpers/mail.js'
import { askForMail, emailSignInApi } from './helpers/passwordless.js'
import { login, makeUser, useTestApps, withCookies, type TestApp } from './helpers/test-app.js'

const t = useTestApps()
let app: TestApp['app']
let api: ReturnType<typeof emailSignInApi>

beforeAll(async () => {
  ;({ app } = await t.build())
  api = emailSignInApi(app)
})

describe('every event that ends the account\'s sessions voids its pending sign-in mails', () => {
  it('a password reset', async () => {
    const user = await makeUser()
    const mail = await t.mailServer()
    const asked = await askForMail(app, mail, user.email)
    const waiting = mail.next(mailTo(user.email))
    await supertest(app).post('/api/auth/forgot-password').send({ email: user.email }).expect(200)
    const reset = linkIn(await waiting, 'reset-password')
    await supertest(app).post('/api/auth/reset-password').send({ email: user.email, token: reset.token, password: 'a brand new secret' }).expect(200)
    expect((await api.verify({ token: asked.token }, asked.cookies)).status).toBe(422)
    expect((await api.verify({ email: user.email, code: asked.code }, asked.cookies)).status).toBe(422)
  })

  it('signing out everywhere, an approval waiting for the asking browser included', async () => {
    const user = await makeUser()
    const { cookies } = await login(app, user.email)
    const pending = await askForMail(app, await t.mailServer(), user.email)
    await supertest(app).post('/api/auth/logout-all').set(withCookies(cookies)).expect(204)
    expect((await api.verify({ token: pending.token }, pending.cookies)).status).toBe(422)

    const again = await login(app, user.email)
    const approved = await askForMail(app, await t.mailServer(), user.email)
    expect((await api.approve({ token: approved.token })).status).toBe(200)
    await supertest(app).post('/api/auth/logout-all').set(withCookies(again.cookies)).expect(204)
    const polled = await api.status(approved.cookies)
    expect(polled.status).toBe(202)
    expect(polled.headers['set-cookie']).toBeUndefined()
    expect(await EmailSignIn.count({ where: { userId: user.id } })).toBe(0)
  })

  it('an address change: the link mailed to the old address no longer works', async () => {
    const user = await makeUser()
    const asked = await askForMail(app, await t.mailServer(), user.email)
    // As a confirmed change leaves it (the change's own flow is base's).
    await user.update({ email: `moved-${user.email}` })
    expect((await api.verify({ token: asked.token }, asked.cookies)).status).toBe(422)
  })
})
