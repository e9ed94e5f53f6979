import supertest from 'supertest'
import { beforeAll, describe, expect, it } from 'vitest'
import { TwoFactorChallenge } from '../src/features/two-factor/models/two-factor-challenge.js'
import { setCookies } from './helpers/cookies.js'
import { me } from './helpers/requests.js'
import { authConfig, makeUser, names, PASSWORD, useTestApps, type TestApp } from './helpers/test-app.js'
import { answerChallenge, codeFor, passwordStep, withTwoFactor, wrongCode } from './helpers/two-factor.js'

const t = useTestApps()

describe('login of a user with two-factor authentication', () => {
  let app: TestApp['app']
  beforeAll(async () => {
    ;({ app } = await t.build())
  })

  it('the password step answers {two_factor: true} with only a signed, HttpOnly challenge cookie of 300 s', async () => {
    const user = await makeUser()
    await withTwoFactor(app, user.email)
    const { res } = await passwordStep(app, user.email)
    expect(res.body).toEqual({ two_factor: true })
    const cookies = setCookies(res)
    expect([...cookies.keys()].filter((name) => name !== names().session)).toEqual([names().twoFactor])
    const challenge = cookies.get(names().twoFactor)!
    expect(decodeURIComponent(challenge.raw)).toMatch(/^s:/)
    expect(challenge.attributes).toMatchObject({ httponly: true, path: '/', samesite: 'Lax' })
    expect(challenge.maxAge).toBe(300)
  })

  it('a wrong password is answered as for any user: 422 errors.email, no challenge', async () => {
    const user = await makeUser()
    await withTwoFactor(app, user.email)
    const res = await supertest(app).post('/api/auth/login').send({ email: user.email, password: 'not my password' })
    expect(res.status).toBe(422)
    expect(Object.keys(res.body.errors)).toEqual(['email'])
    expect(setCookies(res).has(names().twoFactor)).toBe(false)
  })

  it('a valid code signs in: {user, access_token}, both cookies, the challenge cookie cleared', async () => {
    const user = await makeUser()
    const { secret } = await withTwoFactor(app, user.email)
    const challenge = await passwordStep(app, user.email)
    const res = await answerChallenge(app, challenge.cookies, { code: await codeFor(secret) })
    expect(res.status).toBe(200)
    expect(Object.keys(res.body).sort()).toEqual(['access_token', 'user'])
    expect(res.body.user).toMatchObject({ id: user.id, email: user.email, twoFactorEnabled: true })
    const cookies = setCookies(res)
    expect(cookies.get(names().access)?.cleared).toBe(false)
    expect(cookies.get(names().refresh)?.cleared).toBe(false)
    expect(cookies.get(names().twoFactor)?.cleared).toBe(true)
    const signedIn = { [names().access]: cookies.get(names().access)!.raw, [names().refresh]: cookies.get(names().refresh)!.raw }
    expect((await me(app, signedIn)).body.user.id).toBe(user.id)
  })

  it.each([
    [true, authConfig.refreshRememberExpirySeconds],
    [false, authConfig.refreshExpirySeconds],
  ])('keeps the remember-me choice of the password step (remember: %s)', async (remember, life) => {
    const user = await makeUser()
    const { secret } = await withTwoFactor(app, user.email)
    const challenge = await passwordStep(app, user.email, remember)
    const res = await answerChallenge(app, challenge.cookies, { code: await codeFor(secret) }).expect(200)
    expect(setCookies(res).get(names().refresh)!.maxAge).toBe(life)
  })

  it('is single use: the same challenge after a success is 401', async () => {
    const user = await makeUser()
    const { secret } = await withTwoFactor(app, user.email)
    const challenge = await passwordStep(app, user.email)
    await answerChallenge(app, challenge.cookies, { code: await codeFor(secret) }).expect(200)
    expect((await answerChallenge(app, challenge.cookies, { code: await codeFor(secret, 1) })).status).toBe(401)
  })

  it('a missing, unsigned, forged or expired challenge is 401', async () => {
    const user = await makeUser()
    const { secret } = await withTwoFactor(app, user.email)
    const code = await codeFor(secret)
    expect((await answerChallenge(app, {}, { code })).status).toBe(401)
    expect((await answerChallenge(app, { [names().twoFactor]: 'plain' }, { code })).status).toBe(401)
    expect((await answerChallenge(app, { [names().twoFactor]: 's:forged.signature' }, { code })).status).toBe(401)

    const challenge = await passwordStep(app, user.email)
    await TwoFactorChallenge.update({ expiresAt: new Date(Date.now() - 1000) }, { where: { userId: user.id } })
    const res = await answerChallenge(app, challenge.cookies, { code })
    expect(res.status).toBe(401)
    expect(setCookies(res).get(names().twoFactor)?.cleared).toBe(true)
  })

  it('5 wrong codes: each is 422 errors.code, the 5th voids the challenge, so even the right code is then 401', async () => {
    const user = await makeUser()
    const { secret } = await withTwoFactor(app, user.email)
    const challenge = await passwordStep(app, user.email)
    const wrong = await wrongCode(secret)
    for (let attempt = 1; attempt <= 5; attempt++) {
      const res = await answerChallenge(app, challenge.cookies, { code: wrong })
      expect(res.status, `attempt ${attempt}`).toBe(422)
      expect(Object.keys(res.body.errors)).toEqual(['code'])
    }
    expect((await answerChallenge(app, challenge.cookies, { code: await codeFor(secret) })).status).toBe(401)
    expect(await TwoFactorChallenge.count({ where: { userId: user.id } })).toBe(0)
  })

  it('parallel guesses cannot exceed the 5 attempts', async () => {
    // The per-user limit (also 5) would stop the surplus first; this is about the challenge's own count.
    const { app } = await t.build({ rateLimits: { twoFactorPerUserIp: { limit: 100, windowMs: 60_000 } } })
    const user = await makeUser()
    const { secret } = await withTwoFactor(app, user.email)
    const challenge = await passwordStep(app, user.email)
    const wrong = await wrongCode(secret)
    const statuses = (await Promise.all(Array.from({ length: 8 }, () => answerChallenge(app, challenge.cookies, { code: wrong })))).map((res) => res.status)
    expect(statuses.filter((status) => status === 422)).toHaveLength(5)
    expect(statuses.filter((status) => status === 401)).toHaveLength(3)
  })

  it('is bound to its user: the code of another user with 2FA does not pass', async () => {
    const alice = await makeUser()
    const bob = await makeUser()
    await withTwoFactor(app, alice.email)
    const bobs = await withTwoFactor(app, bob.email)
    const challenge = await passwordStep(app, alice.email)
    const res = await answerChallenge(app, challenge.cookies, { code: await codeFor(bobs.secret) })
    expect(res.status).toBe(422)
    expect(Object.keys(res.body.errors)).toEqual(['code'])
  })

  it('a body with neither code nor recovery_code is 422 errors.code and costs no attempt', async () => {
    const user = await makeUser()
    const { secret } = await withTwoFactor(app, user.email)
    const challenge = await passwordStep(app, user.email)
    const res = await answerChallenge(app, challenge.cookies, {})
    expect(res.status).toBe(422)
    expect(Object.keys(res.body.errors)).toEqual(['code'])
    expect((await TwoFactorChallenge.findOne({ where: { userId: user.id } }))?.attempts).toBe(0)
    await answerChallenge(app, challenge.cookies, { code: await codeFor(secret) }).expect(200)
  })

  it('users without two-factor authentication sign in at the password step as before', async () => {
    const user = await makeUser()
    const res = await supertest(app).post('/api/auth/login').send({ email: user.email, password: PASSWORD })
    expect(res.status).toBe(200)
    expect(res.body.user).toMatchObject({ id: user.id, twoFactorEnabled: false })
    expect(setCookies(res).has(names().twoFactor)).toBe(false)
  })
})

describe('rate limits of the challenge', () => {
  it('wrong codes are limited per user and IP across challenges: then 429 with Retry-After', async () => {
    const { app } = await t.build({ rateLimits: { twoFactorPerUserIp: { limit: 3, windowMs: 60_000 } } })
    const user = await makeUser()
    const { secret } = await withTwoFactor(app, user.email)
    const wrong = await wrongCode(secret)
    const first = await passwordStep(app, user.email)
    for (let i = 0; i < 2; i++) await answerChallenge(app, first.cookies, { code: wrong }).expect(422)
    const second = await passwordStep(app, user.email)
    await answerChallenge(app, second.cookies, { code: wrong }).expect(422)
    const limited = await answerChallenge(app, second.cookies, { code: await codeFor(secret) })
    expect(limited.status).toBe(429)
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0)

    // Another user from the same IP is not affected.
    const other = await makeUser()
    const others = await withTwoFactor(app, other.email)
    const challenge = await passwordStep(app, other.email)
    await answerChallenge(app, challenge.cookies, { code: await codeFor(others.secret) }).expect(200)
  })
})
