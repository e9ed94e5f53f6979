import { createHash } from 'node:crypto'
import supertest from 'supertest'
import { beforeAll, describe, expect, it } from 'vitest'
import { security } from '../src/kernel/config/security.js'
import { EmailVerificationToken, User } from '../src/kernel/models/index.js'
import { linkIn, mailTo } from './helpers/mail.js'
import { makeUser, PASSWORD, uniqueEmail, useTestApps, type TestApp } from './helpers/test-app.js'

const t = useTestApps()
const sha256 = (value: string) => createHash('sha256').update(value).digest('hex')
const INVALID = { message: 'This link is invalid or has expired.', errors: { token: ['This link is invalid or has expired.'] } }

describe.each([true, false])('e-mail verification (requireEmailVerification: %s)', (requireEmailVerification) => {
  let app: TestApp['app']
  beforeAll(async () => {
    ;({ app } = await t.build({ auth: { requireEmailVerification } }))
  })

  async function registerAndGetLink(email: string) {
    const mail = await t.mailServer()
    const waiting = mail.next(mailTo(email))
    if (requireEmailVerification) {
      await supertest(app).post('/api/auth/register').send({ name: 'V', email, password: PASSWORD }).expect(202)
    } else {
      // Without required verification the address can still be verified on request.
      await makeUser({ email, verified: false })
      await supertest(app).post('/api/auth/resend-verification').send({ email }).expect(200)
    }
    return linkIn(await waiting, 'verify-email')
  }

  it('verifies with the mailed token: emailVerifiedAt set, 200 {message, user}', async () => {
    const email = uniqueEmail('v')
    const link = await registerAndGetLink(email)
    // At least 128 random bits, and only the hash is stored.
    expect(Buffer.from(link.token, 'base64url').length).toBeGreaterThanOrEqual(16)
    const user = await User.findOne({ where: { email } })
    const row = await EmailVerificationToken.findOne({ where: { userId: user!.id } })
    expect(row?.tokenHash).toBe(sha256(link.token))
    const ttl = (row!.expiresAt.getTime() - row!.createdAt.getTime()) / 1000
    expect(Math.abs(ttl - security.emailVerificationExpirySeconds)).toBeLessThan(5)

    const res = await supertest(app).post('/api/auth/verify-email').send({ email: link.email, token: link.token })
    expect(res.status).toBe(200)
    expect(typeof res.body.message).toBe('string')
    expect(res.body.user.email).toBe(email)
    expect(res.body.user.emailVerifiedAt).not.toBeNull()
    expect((await User.findByPk(user!.id))?.emailVerifiedAt).toBeInstanceOf(Date)

    if (requireEmailVerification) {
      await supertest(app).post('/api/auth/login').send({ email, password: PASSWORD }).expect(200)
    }
  })

  it('answers a used, a wrong, an expired and someone else\'s token with one generic 422', async () => {
    const email = uniqueEmail('v')
    const link = await registerAndGetLink(email)
    const other = await registerAndGetLink(uniqueEmail('other'))

    const wrong = await supertest(app).post('/api/auth/verify-email').send({ email, token: 'A'.repeat(43) })
    const foreign = await supertest(app).post('/api/auth/verify-email').send({ email, token: other.token })
    const unknownEmail = await supertest(app).post('/api/auth/verify-email').send({ email: uniqueEmail('nobody'), token: link.token })
    await EmailVerificationToken.update({ expiresAt: new Date(Date.now() - 1000) }, { where: { tokenHash: sha256(link.token) } })
    const expired = await supertest(app).post('/api/auth/verify-email').send({ email, token: link.token })
    for (const res of [wrong, foreign, unknownEmail, expired]) {
      expect(res.status).toBe(422)
      expect(res.body).toEqual(INVALID)
    }
    expect((await User.findOne({ where: { email } }))?.emailVerifiedAt).toBeNull()

    await supertest(app).post('/api/auth/verify-email').send({ email: other.email, token: other.token }).expect(200)
    const used = await supertest(app).post('/api/auth/verify-email').send({ email: other.email, token: other.token })
    expect(used.status).toBe(422)
    expect(used.body).toEqual(INVALID)
  })

  it('a new request invalidates the older link', async () => {
    const email = uniqueEmail('v')
    const first = await registerAndGetLink(email)
    const mail = await t.mailServer()
    const waiting = mail.next(mailTo(email))
    await supertest(app).post('/api/auth/resend-verification').send({ email }).expect(200)
    const second = linkIn(await waiting, 'verify-email')
    expect(second.token).not.toBe(first.token)
    await supertest(app).post('/api/auth/verify-email').send({ email, token: first.token }).expect(422)
    await supertest(app).post('/api/auth/verify-email').send({ email, token: second.token }).expect(200)
  })
})

describe('resend-verification', () => {
  it('answers the same for unknown, unverified and verified addresses; an account gets a choose-a-password link, an unknown address nothing', async () => {
    const { app } = await t.build({ auth: { requireEmailVerification: true } })
    const mail = await t.mailServer()
    const unverified = await makeUser({ verified: false })
    const verified = await makeUser({ verified: true })
    const unknown = uniqueEmail('ghost')
    const responses = []
    for (const email of [unknown, verified.email, unverified.email]) {
      responses.push(await supertest(app).post('/api/auth/resend-verification').send({ email }))
    }
    for (const res of responses) {
      expect(res.status).toBe(200)
      expect(res.body).toEqual(responses[0]!.body)
    }
    // Neither address has a pending registration whose one link could be sent again.
    for (const user of [verified, unverified]) expect((await mail.waitFor(mailTo(user.email))).body).toMatch(/&(amp;)?choose=1/)
    // Jobs run in order: by the time the last one mailed, the first had nothing to send.
    expect(mail.received.some(mailTo(unknown))).toBe(false)
  })

  it('re-sends the one link of an address with one pending registration, which still sets that registration', async () => {
    const { app } = await t.build({ auth: { requireEmailVerification: true } })
    const mail = await t.mailServer()
    const email = uniqueEmail('once')
    const first = mail.next(mailTo(email))
    await supertest(app).post('/api/auth/register').send({ name: 'Una', email, password: 'una-password' }).expect(202)
    await first
    const again = mail.next(mailTo(email))
    await supertest(app).post('/api/auth/resend-verification').send({ email }).expect(200)
    const resent = await again
    expect(resent.body).not.toMatch(/choose=1/)
    await supertest(app).post('/api/auth/verify-email').send({ email, token: linkIn(resent, 'verify-email').token }).expect(200)
    await supertest(app).post('/api/auth/login').send({ email, password: 'una-password' }).expect(200)
  })

  it('validates the e-mail', async () => {
    const { app } = await t.build()
    const res = await supertest(app).post('/api/auth/resend-verification').send({ email: 'nope' })
    expect(res.status).toBe(422)
    expect(res.body.errors.email).toBeDefined()
  })
})
