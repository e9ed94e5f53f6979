import supertest from 'supertest'
import { describe, expect, it } from 'vitest'
import { EmailVerificationToken, User } from '../src/kernel/models/index.js'
import { mailTo } from './helpers/mail.js'
import { askForMail, emailSignInApi } from './helpers/passwordless.js'
import { makeUser, uniqueEmail, useTestApps } from './helpers/test-app.js'

const t = useTestApps()

describe('a sign-in mail proves the mailbox', () => {
  it('verification required: an address a stranger registered becomes its owner\'s, without the stranger\'s password or name', async () => {
    const { app } = await t.build({ auth: { requireEmailVerification: true } })
    const mail = await t.mailServer()
    const email = uniqueEmail('owner')
    const registered = mail.next(mailTo(email))
    await supertest(app).post('/api/auth/register').send({ name: 'Stranger', email, password: 'the stranger knows' }).expect(202)
    await registered

    const asked = await askForMail(app, mail, email)
    const res = await emailSignInApi(app).verify({ token: asked.token }, asked.cookies)
    expect(res.status, JSON.stringify(res.body)).toBe(200)
    expect(res.body.user.emailVerifiedAt).not.toBeNull()
    expect(res.body.user.name).toBe(email.split('@')[0])
    const user = await User.findOne({ where: { email } })
    expect(user?.password).toBeNull()
    expect(await EmailVerificationToken.count({ where: { userId: user!.id } })).toBe(0)
    await supertest(app).post('/api/auth/login').send({ email, password: 'the stranger knows' }).expect(422)
  })

  it('verification optional: an unverified account is verified and keeps its password', async () => {
    const { app } = await t.build({ auth: { requireEmailVerification: false } })
    const user = await makeUser({ verified: false })
    const asked = await askForMail(app, await t.mailServer(), user.email)
    const res = await emailSignInApi(app).verify({ email: user.email, code: asked.code }, asked.cookies)
    expect(res.status).toBe(200)
    expect(res.body.user.emailVerifiedAt).not.toBeNull()
    expect((await User.findByPk(user.id))?.password).not.toBeNull()
  })
})
