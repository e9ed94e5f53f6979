import type { Express } from 'express'
import { Op } from 'sequelize'
import supertest from 'supertest'
import { describe, expect, it } from 'vitest'
import type { AppContext } from '../src/kernel/context.js'
import { PasswordResetToken, SecurityEvent, Session, type User } from '../src/kernel/models/index.js'
import { TwoFactorChallenge } from '../src/features/two-factor/models/two-factor-challenge.js'
import { decrypt } from '../src/kernel/security/encryption.js'
import { issueResetLink } from '../src/kernel/services/password-reset.js'
import { mailTo } from './helpers/mail.js'
import { login, makeUser, PASSWORD, redisLabel, redisUrl, useTestApps, withCookies } from './helpers/test-app.js'
import { answerChallenge, codeFor, earlierCode, passwordStep, twoFactorApi, withTwoFactor, wrongCode } from './helpers/two-factor.js'
import { jobsDone } from './helpers/jobs.js'

const t = useTestApps()

/** Every request from an address of its own (an IPv6 /56 each, as a distributed attacker would): no per-IP limit ever counts twice. */
let addresses = 0
const fromAnywhere = () => `2001:db8:${(++addresses).toString(16)}00::1`

const proxied = (options: Parameters<typeof t.build>[0] = {}) => t.build({ ...options, env: { TRUST_PROXY: '1', ...options.env } })

async function passwordStepFrom(app: Express, email: string, ip: string) {
  const res = await supertest(app).post('/api/auth/login').set('X-Forwarded-For', ip).send({ email, password: PASSWORD })
  if (res.status !== 200 || res.body.two_factor !== true) throw new Error(`password step: ${res.status} ${JSON.stringify(res.body)}`)
  return res.headers['set-cookie'] as unknown as string[]
}

const challengeFrom = (app: Express, cookies: string[], ip: string, body: object) =>
  supertest(app)
    .post('/api/auth/two-factor-challenge')
    .set('X-Forwarded-For', ip)
    .set('Cookie', cookies.map((cookie) => cookie.split(';')[0]).join('; '))
    .send(body)

/** Ten wrong codes for the account, each from a new address, over as many challenges as that takes (5 each). */
async function tenWrongCodes(app: Express, user: User, secret: string): Promise<void> {
  const wrong = await wrongCode(secret)
  for (let n = 0; n < 10; n++) {
    const ip = fromAnywhere()
    const cookies = await passwordStepFrom(app, user.email, ip)
    const res = await challengeFrom(app, cookies, ip, { code: wrong })
    expect(res.status, `wrong code ${n + 1}`).toBe(422)
  }
}

describe('lockout of the second step', () => {
  it('10 wrong codes from 10 addresses lock the account: every challenge answers 429 with Retry-After, the right code too, and the owner is told once', async () => {
    const { app, ctx } = await proxied()
    const user = await makeUser()
    const { secret } = await withTwoFactor(app, user.email)
    await tenWrongCodes(app, user, secret)

    const ip = fromAnywhere()
    const cookies = await passwordStepFrom(app, user.email, ip)
    const locked = await challengeFrom(app, cookies, ip, { code: await codeFor(secret) })
    expect(locked.status).toBe(429)
    const retryAfter = Number(locked.headers['retry-after'])
    expect(retryAfter).toBeGreaterThan(14 * 60)
    expect(retryAfter).toBeLessThanOrEqual(15 * 60)
    expect((await challengeFrom(app, cookies, ip, { recovery_code: 'AAAA-BBBB-CCCC-DDDD' })).status).toBe(429)

    expect(await SecurityEvent.count({ where: { userId: user.id, type: 'locked_out' } })).toBe(1)
    await jobsDone(ctx)
    const notices = (await t.mailServer()).received.filter((mail) => mailTo(user.email)(mail) && mail.subject === 'Sign-ins to your account are paused')
    expect(notices).toHaveLength(1)
  })

  it('a password reset lifts the lock', async () => {
    const { app } = await proxied()
    const user = await makeUser()
    const { secret } = await withTwoFactor(app, user.email)
    await tenWrongCodes(app, user, secret)
    const token = await issueResetLink(user)
    await supertest(app).post('/api/auth/reset-password').send({ email: user.email, token, password: PASSWORD }).expect(200)
    const ip = fromAnywhere()
    const cookies = await passwordStepFrom(app, user.email, ip)
    expect((await challengeFrom(app, cookies, ip, { code: await codeFor(secret) })).status).toBe(200)
  })

  it('other accounts are not locked with it', async () => {
    const { app } = await proxied()
    const [victim, other] = [await makeUser(), await makeUser()]
    const { secret } = await withTwoFactor(app, victim.email)
    const others = await withTwoFactor(app, other.email)
    await tenWrongCodes(app, victim, secret)
    const ip = fromAnywhere()
    const cookies = await passwordStepFrom(app, other.email, ip)
    expect((await challengeFrom(app, cookies, ip, { code: await codeFor(others.secret) })).status).toBe(200)
  })

  describe.skipIf(!redisUrl)(`two instances on one Redis${redisLabel}`, () => {
    it('a lock made on one instance holds on the other', async () => {
      const first = await proxied({ redis: true })
      const second = await proxied({ redis: true, keyPrefix: first.ctx.keyPrefix })
      const user = await makeUser()
      const { secret } = await withTwoFactor(first.app, user.email)
      await tenWrongCodes(first.app, user, secret)
      const ip = fromAnywhere()
      const cookies = await passwordStepFrom(second.app, user.email, ip)
      expect((await challengeFrom(second.app, cookies, ip, { code: await codeFor(secret) })).status).toBe(429)
    })
  })
})

describe('POST /api/account/two-factor/confirm is limited like a challenge', () => {
  it('wrong codes at confirm meet 429 with Retry-After', async () => {
    const { app } = await t.build()
    const user = await makeUser()
    const { cookies } = await login(app, user.email)
    const api = twoFactorApi(app, cookies)
    const secret = (await api.enable()).body.secret as string
    const wrong = await wrongCode(secret)
    const answers: number[] = []
    for (let i = 0; i < 30; i++) answers.push((await api.confirm({ code: wrong })).status)
    expect(answers.slice(0, 5)).toEqual([422, 422, 422, 422, 422])
    expect(answers.at(-1)).toBe(429)
    const limited = await api.confirm({ code: await earlierCode(secret) })
    expect(limited.status).toBe(429)
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0)
  })
})

describe("the two-factor layer's credential events", () => {
  const notices = async (ctx: AppContext, email: string, subject: string) => {
    await jobsDone(ctx)
    return (await t.mailServer()).received.filter((mail) => mailTo(email)(mail) && mail.subject === subject)
  }

  it('two_factor_enabled: recorded, other sessions end, waiting sign-ins and mailed links die, one notice', async () => {
    const { app, ctx } = await t.build()
    const user = await makeUser()
    const other = (await login(app, user.email)).cookies
    await issueResetLink(user)
    await withTwoFactor(app, user.email)
    expect(await SecurityEvent.count({ where: { userId: user.id, type: 'two_factor_enabled' } })).toBe(1)
    expect((await supertest(app).get('/api/auth/me').set(withCookies(other))).status).toBe(401)
    expect(await PasswordResetToken.count({ where: { userId: user.id } })).toBe(0)
    expect(await notices(ctx, user.email, 'Two-factor authentication was turned on')).toHaveLength(1)
  })

  it('recovery_codes_regenerated and two_factor_disabled: recorded, others signed out, challenges voided, one notice each', async () => {
    const { app, ctx } = await t.build()
    const user = await makeUser()
    const { cookies } = await withTwoFactor(app, user.email)
    const api = twoFactorApi(app, cookies)

    await passwordStep(app, user.email)
    await api.regenerate().expect(200)
    expect(await TwoFactorChallenge.count({ where: { userId: user.id } })).toBe(0)
    expect(await SecurityEvent.count({ where: { userId: user.id, type: 'recovery_codes_regenerated' } })).toBe(1)

    await passwordStep(app, user.email)
    await api.disable().expect(204)
    expect(await TwoFactorChallenge.count({ where: { userId: user.id } })).toBe(0)
    expect(await SecurityEvent.count({ where: { userId: user.id, type: 'two_factor_disabled' } })).toBe(1)
    expect(await Session.count({ where: { userId: user.id, revokedAt: null } })).toBe(1)

    expect(await notices(ctx, user.email, 'New recovery codes were made')).toHaveLength(1)
    expect(await notices(ctx, user.email, 'Two-factor authentication was turned off')).toHaveLength(1)
  })

  it('a wrong code is a sign_in_failed event; the completed challenge is a sign_in', async () => {
    const { app } = await t.build()
    const user = await makeUser()
    const { secret } = await withTwoFactor(app, user.email)
    const challenge = await passwordStep(app, user.email)
    await answerChallenge(app, challenge.cookies, { code: await wrongCode(secret) }).expect(422)
    await answerChallenge(app, challenge.cookies, { code: await codeFor(secret) }).expect(200)
    const types = (await SecurityEvent.findAll({ where: { userId: user.id, type: { [Op.in]: ['sign_in', 'sign_in_failed'] } }, order: [['id', 'ASC']] })).map((row) => row.type)
    // The first sign-in turned two-factor on; then a wrong code and the right one.
    expect(types).toEqual(['sign_in', 'sign_in_failed', 'sign_in'])
  })
})

describe('secrets at rest', () => {
  it('a secret sealed by an earlier version (features/two-factor/services/encryption.ts) still opens', () => {
    const sealed = 'v1.CoaT7tOqOtMzmjvR.77yE9vkiEdFp23enpw-FYg.PMG0E2HCoMGhQKiV-ZGp9w'
    const key = 'a-fixed-encryption-key-of-32-characters!!'
    expect(decrypt(sealed, key, 'two-factor-secret')).toBe('JBSWY3DPEHPK3PXP')
    // Another purpose's key opens nothing of it.
    expect(decrypt(sealed, key, 'webhook-secret')).toBeNull()
  })
})
