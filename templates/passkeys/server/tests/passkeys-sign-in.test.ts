import supertest from 'supertest'
import { beforeAll, describe, expect, it } from 'vitest'
import { SecurityEvent } from '../src/kernel/models/index.js'
import { Passkey } from '../src/features/passkeys/models/passkey.js'
import { PasskeyChallenge } from '../src/features/passkeys/models/passkey-challenge.js'
import { SoftwareAuthenticator } from './helpers/authenticator.js'
import { jar, setCookies } from './helpers/cookies.js'
import { ORIGIN, RP_ID, signInOptions, signInWithPasskey, withPasskey } from './helpers/passkeys.js'
import { me } from './helpers/requests.js'
import { authConfig, makeUser, names, useTestApps, withCookies, type TestApp } from './helpers/test-app.js'

const t = useTestApps()
// This file fails many sign-ins from one address on purpose; the limits have tests of their own below.
const unlimited = { passkeyOptionsPerIp: { limit: 10_000, windowMs: 60_000 }, passkeySignInPerIp: { limit: 10_000, windowMs: 60_000 } }

describe('POST /api/auth/passkey/options', () => {
  let app: TestApp['app']
  beforeAll(async () => {
    ;({ app } = await t.build())
  })

  it('names nobody: empty allowCredentials, user verification required, the challenge in a signed HttpOnly cookie for 300 s', async () => {
    const { options, res } = await signInOptions(app)
    expect(options.challenge).toMatch(/^[A-Za-z0-9_-]{43,}$/)
    expect(options.rpId).toBe(RP_ID)
    expect(res.body.allowCredentials).toEqual([])
    expect(res.body.userVerification).toBe('required')
    const cookie = setCookies(res).get(names().webauthn)!
    expect(cookie).toBeDefined()
    expect(decodeURIComponent(cookie.raw).startsWith('s:')).toBe(true)
    expect(cookie.maxAge).toBe(300)
    expect(cookie.attributes).toMatchObject({ httponly: true, path: '/', samesite: 'Lax' })
    expect(await PasskeyChallenge.count({ where: { purpose: 'sign_in', userId: null } })).toBeGreaterThan(0)
  })

  it('is limited per IP (each one stores a challenge)', async () => {
    const { app: limited } = await t.build({ rateLimits: { passkeyOptionsPerIp: { limit: 2, windowMs: 60_000 } } })
    await supertest(limited).post('/api/auth/passkey/options').expect(200)
    await supertest(limited).post('/api/auth/passkey/options').expect(200)
    const res = await supertest(limited).post('/api/auth/passkey/options')
    expect(res.status).toBe(429)
    expect(res.headers['retry-after']).toBeDefined()
  })
})

describe('POST /api/auth/passkey', () => {
  let app: TestApp['app']
  beforeAll(async () => {
    ;({ app } = await t.build({ rateLimits: unlimited }))
  })

  it('signs in as a password does: {user, access_token}, both cookies, a session, a sign_in event', async () => {
    const user = await makeUser()
    const { passkey, authenticator } = await withPasskey(app, user.email)
    const { res } = await signInWithPasskey(app, authenticator)
    expect(res.status).toBe(200)
    expect(Object.keys(res.body).sort()).toEqual(['access_token', 'user'])
    expect(res.body.user).toMatchObject({ id: user.id, email: user.email, passkeys: 1 })
    const cookies = setCookies(res)
    expect(cookies.get(names().access)).toBeDefined()
    expect(cookies.get(names().refresh)!.maxAge).toBe(authConfig.refreshExpirySeconds)
    // The ceremony's cookie is cleared.
    expect(cookies.get(names().webauthn)!.cleared).toBe(true)
    expect((await me(app, jar(res))).body.user.id).toBe(user.id)
    const event = await SecurityEvent.findOne({ where: { userId: user.id, type: 'sign_in' }, order: [['id', 'DESC']] })
    expect(JSON.parse(event!.meta as unknown as string)).toEqual({ method: 'passkey' })
    expect((await Passkey.findByPk(passkey.id))!.lastUsedAt).toBeInstanceOf(Date)
  })

  it('remember: the refresh cookie lives as long as "remember me" says', async () => {
    const user = await makeUser()
    const { authenticator } = await withPasskey(app, user.email)
    const { res } = await signInWithPasskey(app, authenticator, {}, { remember: true })
    expect(res.status).toBe(200)
    expect(setCookies(res).get(names().refresh)!.maxAge).toBe(authConfig.refreshRememberExpirySeconds)
  })

  it('a counting authenticator: the counter is kept, and one that goes backwards (a clone) is 401 and sign_in_failed', async () => {
    const user = await makeUser()
    const { passkey, authenticator } = await withPasskey(app, user.email, { counting: true })
    expect((await signInWithPasskey(app, authenticator)).res.status).toBe(200)
    expect((await signInWithPasskey(app, authenticator)).res.status).toBe(200)
    expect((await Passkey.findByPk(passkey.id))!.counter).toBe(2)
    const cloned = await signInWithPasskey(app, authenticator, { counter: 1 })
    expect(cloned.res.status).toBe(401)
    expect(cloned.res.body).toEqual({ message: expect.any(String) })
    expect(setCookies(cloned.res).get(names().access)).toBeUndefined()
    const failed = await SecurityEvent.findOne({ where: { userId: user.id, type: 'sign_in_failed' }, order: [['id', 'DESC']] })
    expect(JSON.parse(failed!.meta as unknown as string)).toMatchObject({ factor: 'passkey', reason: 'counter' })
    expect((await Passkey.findByPk(passkey.id))!.counter).toBe(2)
  })

  const refusals: [string, Parameters<SoftwareAuthenticator['assert']>[2]][] = [
    ['another origin', { origin: 'https://evil.example' }],
    ['another RP id', { rpId: 'evil.example' }],
    ['a signature by another key', { otherKey: true }],
    ['no user verification', { userVerified: false }],
    ['another challenge than the cookie’s', { challenge: 'c29tZXRoaW5nLWVsc2UtZW50aXJlbHktZWxzZS1hdC1hbGwtMzI' }],
  ]
  for (const [what, tamper] of refusals) {
    it(`refuses ${what}: 401, no cookies, sign_in_failed on the account`, async () => {
      const user = await makeUser()
      const { authenticator } = await withPasskey(app, user.email)
      const { res } = await signInWithPasskey(app, authenticator, tamper)
      expect(res.status).toBe(401)
      expect(setCookies(res).get(names().access)).toBeUndefined()
      expect(await SecurityEvent.count({ where: { userId: user.id, type: 'sign_in_failed' } })).toBe(1)
    })
  }

  it('an unknown credential is 401', async () => {
    const { res } = await signInWithPasskey(app, new SoftwareAuthenticator(ORIGIN))
    expect(res.status).toBe(401)
    expect(setCookies(res).get(names().access)).toBeUndefined()
  })

  it('a challenge works once: replaying a whole sign-in is 401', async () => {
    const user = await makeUser()
    const { authenticator } = await withPasskey(app, user.email)
    const { res, response, cookies } = await signInWithPasskey(app, authenticator)
    expect(res.status).toBe(200)
    const replay = await supertest(app).post('/api/auth/passkey').set(withCookies(cookies)).send({ response })
    expect(replay.status).toBe(401)
  })

  it('without the cookie, or with a forged one, it is 401', async () => {
    const user = await makeUser()
    const { authenticator } = await withPasskey(app, user.email)
    const { options } = await signInOptions(app)
    const response = authenticator.assert(options, RP_ID)
    expect((await supertest(app).post('/api/auth/passkey').send({ response })).status).toBe(401)
    const forged = { [names().webauthn]: `s:${options.challenge}.bm90LWEtc2lnbmF0dXJl` }
    expect((await supertest(app).post('/api/auth/passkey').set(withCookies(forged)).send({ response })).status).toBe(401)
  })

  it('an expired challenge is 401', async () => {
    const user = await makeUser()
    const { authenticator } = await withPasskey(app, user.email)
    const { options, cookies } = await signInOptions(app)
    await PasskeyChallenge.update({ expiresAt: new Date(Date.now() - 1000) }, { where: { purpose: 'sign_in' } })
    const res = await supertest(app).post('/api/auth/passkey').set(withCookies(cookies)).send({ response: authenticator.assert(options, RP_ID) })
    expect(res.status).toBe(401)
  })

  it('a challenge started on one instance is finished on another', async () => {
    const { app: other } = await t.build({ rateLimits: unlimited })
    const user = await makeUser()
    const { authenticator } = await withPasskey(app, user.email)
    const { options, cookies } = await signInOptions(app)
    const res = await supertest(other).post('/api/auth/passkey').set(withCookies(cookies)).send({ response: authenticator.assert(options, RP_ID) })
    expect(res.status).toBe(200)
    expect(res.body.user.id).toBe(user.id)
  })

  it('a malformed response is 422 errors.response', async () => {
    const { cookies } = await signInOptions(app)
    for (const response of [undefined, 42, { id: 'x', type: 'public-key' }]) {
      const res = await supertest(app).post('/api/auth/passkey').set(withCookies(cookies)).send({ response })
      expect(res.status).toBe(422)
      expect(Object.keys(res.body.errors)).toEqual(['response'])
    }
  })

  it('failed sign-ins are limited per IP', async () => {
    const { app: limited } = await t.build({ rateLimits: { passkeySignInPerIp: { limit: 2, windowMs: 60_000 } } })
    const stranger = new SoftwareAuthenticator(ORIGIN)
    expect((await signInWithPasskey(limited, stranger)).res.status).toBe(401)
    expect((await signInWithPasskey(limited, stranger)).res.status).toBe(401)
    expect((await signInWithPasskey(limited, stranger)).res.status).toBe(429)
  })
})
