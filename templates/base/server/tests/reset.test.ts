import { createHash } from 'node:crypto'
import supertest from 'supertest'
import { beforeAll, describe, expect, it } from 'vitest'
import { security } from '../src/kernel/config/security.js'
import { PasswordResetToken, RefreshToken, User } from '../src/kernel/models/index.js'
import { setCookies } from './helpers/cookies.js'
import { linkIn, mailTo } from './helpers/mail.js'
import { login, makeUser, names, PASSWORD, uniqueEmail, useTestApps, withCookies, type TestApp } from './helpers/test-app.js'

const t = useTestApps()
const sha256 = (value: string) => createHash('sha256').update(value).digest('hex')
const INVALID = { message: 'This link is invalid or has expired.', errors: { token: ['This link is invalid or has expired.'] } }

describe.each([false, true])('password reset (requireEmailVerification: %s)', (requireEmailVerification) => {
  let app: TestApp['app']
  beforeAll(async () => {
    ;({ app } = await t.build({ auth: { requireEmailVerification } }))
  })

  async function requestLink(email: string) {
    const waiting = (await t.mailServer()).next(mailTo(email))
    const res = await supertest(app).post('/api/auth/forgot-password').send({ email })
    expect(res.status).toBe(200)
    return linkIn(await waiting, 'reset-password')
  }

  it('resets the password with the mailed token, revokes every refresh token and clears the cookies', async () => {
    const user = await makeUser()
    const a = await login(app, user.email)
    const b = await login(app, user.email)
    const link = await requestLink(user.email)
    expect(link.url.startsWith('http://localhost:3000/reset-password?token=')).toBe(true)
    expect(Buffer.from(link.token, 'base64url').length).toBeGreaterThanOrEqual(16)
    const row = await PasswordResetToken.findOne({ where: { userId: user.id } })
    expect(row?.tokenHash).toBe(sha256(link.token))
    expect(row?.tokenHash).not.toContain(link.token)
    const ttl = (row!.expiresAt.getTime() - row!.createdAt.getTime()) / 1000
    expect(Math.abs(ttl - security.passwordResetExpirySeconds)).toBeLessThan(5)

    const res = await supertest(app)
      .post('/api/auth/reset-password')
      .set(withCookies(a.cookies))
      .send({ email: link.email, token: link.token, password: 'a brand new secret' })
    expect(res.status).toBe(200)
    expect(typeof res.body.message).toBe('string')
    const cleared = setCookies(res)
    expect(cleared.get(names().access)?.cleared).toBe(true)
    expect(cleared.get(names().refresh)?.cleared).toBe(true)

    expect(await RefreshToken.count({ where: { userId: user.id, revoked: false } })).toBe(0)
    await supertest(app).post('/api/auth/refresh-token').set(withCookies(b.cookies)).expect(401)
    await supertest(app).post('/api/auth/login').send({ email: user.email, password: PASSWORD }).expect(422)
    await supertest(app).post('/api/auth/login').send({ email: user.email, password: 'a brand new secret' }).expect(200)
    expect((await User.findByPk(user.id))?.password).toMatch(/^\$2b\$\d\d\$/)
  })

  it('lets exactly one of two parallel resets with one token succeed', async () => {
    const user = await makeUser()
    const link = await requestLink(user.email)
    const results = await Promise.all(
      ['first password', 'second password'].map((password) =>
        supertest(app).post('/api/auth/reset-password').send({ email: user.email, token: link.token, password }),
      ),
    )
    expect(results.map((r) => r.status).sort()).toEqual([200, 422])
    expect(results.find((r) => r.status === 422)?.body).toEqual(INVALID)
  })

  it('answers invalid, expired, used and foreign tokens with one generic 422', async () => {
    const user = await makeUser()
    const other = await makeUser()
    const link = await requestLink(user.email)
    const otherLink = await requestLink(other.email)
    const attempt = (email: string, token: string) =>
      supertest(app).post('/api/auth/reset-password').send({ email, token, password: 'whatever123' })

    const wrong = await attempt(user.email, 'B'.repeat(43))
    const foreign = await attempt(user.email, otherLink.token)
    await PasswordResetToken.update({ expiresAt: new Date(Date.now() - 1000) }, { where: { userId: user.id } })
    const expired = await attempt(user.email, link.token)
    await attempt(other.email, otherLink.token).expect(200)
    const used = await attempt(other.email, otherLink.token)
    for (const res of [wrong, foreign, expired, used]) {
      expect(res.status).toBe(422)
      expect(res.body).toEqual(INVALID)
    }
  })

  it('a newer request invalidates the older link', async () => {
    const user = await makeUser()
    const first = await requestLink(user.email)
    const second = await requestLink(user.email)
    await supertest(app).post('/api/auth/reset-password').send({ email: user.email, token: first.token, password: 'newpassword1' }).expect(422)
    await supertest(app).post('/api/auth/reset-password').send({ email: user.email, token: second.token, password: 'newpassword1' }).expect(200)
  })

  it('applies the password rules to the new password without consuming the token', async () => {
    const user = await makeUser()
    const link = await requestLink(user.email)
    const res = await supertest(app).post('/api/auth/reset-password').send({ email: user.email, token: link.token, password: 'short' })
    expect(res.status).toBe(422)
    expect(res.body.errors.password).toBeDefined()
    await supertest(app).post('/api/auth/reset-password').send({ email: user.email, token: link.token, password: 'long enough' }).expect(200)
  })
})

describe('forgot-password', () => {
  it('answers every address alike and mails only existing accounts', async () => {
    const { app } = await t.build()
    const mail = await t.mailServer()
    const user = await makeUser()
    const unknown = uniqueEmail('ghost')
    const a = await supertest(app).post('/api/auth/forgot-password').send({ email: unknown })
    const b = await supertest(app).post('/api/auth/forgot-password').send({ email: user.email })
    expect(a.status).toBe(200)
    expect(b.status).toBe(200)
    expect(a.body).toEqual(b.body)
    expect(Object.keys(a.body)).toEqual(['message'])
    await mail.waitFor(mailTo(user.email))
    expect(mail.received.some(mailTo(unknown))).toBe(false)
  })
})
