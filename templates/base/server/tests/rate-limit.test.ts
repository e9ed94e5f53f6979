import { randomUUID } from 'node:crypto'
import supertest from 'supertest'
import { describe, expect, inject, it } from 'vitest'
import { EnvError, parseEnv } from '../src/kernel/config/env.js'
import { defaultRateLimits } from '../src/kernel/config/rate-limits.js'
import { features } from '../src/features/index.js'
import type { Express } from 'express'
import { testSecrets } from './helpers/processes.js'
import { login, makeUser, PASSWORD, redisLabel, redisUrl, uniqueEmail, useTestApps, withCookies } from './helpers/test-app.js'

const t = useTestApps()

const loginAs = (app: Express, email: string, password: string) => supertest(app).post('/api/auth/login').send({ email, password })

function expectThrottled(res: supertest.Response) {
  expect(res.status).toBe(429)
  expect(typeof res.body.message).toBe('string')
  const retryAfter = Number(res.headers['retry-after'])
  expect(retryAfter).toBeGreaterThan(0)
  expect(retryAfter).toBeLessThanOrEqual(60)
}

describe('login limits', () => {
  it('5 failed logins a minute per lowercased e-mail and IP, then 429 with Retry-After even for the right password', async () => {
    expect(defaultRateLimits(features).loginPerEmailIp.limit).toBe(5)
    const { app } = await t.build()
    const user = await makeUser()
    for (let i = 0; i < 5; i++) {
      await loginAs(app, i % 2 ? user.email.toUpperCase() : user.email, 'wrong password').expect(422)
    }
    expectThrottled(await loginAs(app, user.email, PASSWORD))
    // Another address from the same IP is not affected by that counter.
    const other = await makeUser()
    await loginAs(app, other.email, PASSWORD).expect(200)
  })

  it('a successful login clears the counter', async () => {
    const { app } = await t.build()
    const user = await makeUser()
    for (let i = 0; i < 4; i++) await loginAs(app, user.email, 'wrong password').expect(422)
    await loginAs(app, user.email, PASSWORD).expect(200)
    for (let i = 0; i < 5; i++) await loginAs(app, user.email, 'wrong password').expect(422)
    expectThrottled(await loginAs(app, user.email, 'wrong password'))
  })

  it('a wider limit per IP counts failures across e-mails', async () => {
    const { app } = await t.build({ rateLimits: { loginPerIp: { limit: 3, windowMs: 60_000 } } })
    for (let i = 0; i < 3; i++) await loginAs(app, uniqueEmail('spray'), 'wrong password').expect(422)
    expectThrottled(await loginAs(app, uniqueEmail('spray'), 'wrong password'))
  })

  it('successful logins do not use up the per-IP limit', async () => {
    const { app } = await t.build({ rateLimits: { loginPerIp: { limit: 2, windowMs: 60_000 } } })
    const user = await makeUser()
    for (let i = 0; i < 4; i++) await loginAs(app, user.email, PASSWORD).expect(200)
  })
})

describe('RATE_LIMIT_<NAME> sets the count of any named limit', () => {
  it('RATE_LIMIT_LOGIN_PER_EMAIL_IP=2: the third failed login of an address is a 429, its window kept', async () => {
    const { app, ctx } = await t.build({ env: { RATE_LIMIT_LOGIN_PER_EMAIL_IP: '2' } })
    expect(ctx.rateLimits.loginPerEmailIp).toEqual({ ...defaultRateLimits(features).loginPerEmailIp, limit: 2 })
    const user = await makeUser()
    for (let i = 0; i < 2; i++) await loginAs(app, user.email, 'wrong password').expect(422)
    expectThrottled(await loginAs(app, user.email, PASSWORD))
  })

  it('a value that is no count of requests stops start-up with one line naming the variable', () => {
    const base = { NODE_ENV: 'test', DATABASE_URL: 'sqlite::memory:', ...testSecrets() }
    for (const bad of ['0', '-1', 'many', '2.5', '10/min']) {
      let error: unknown
      try {
        parseEnv({ ...base, RATE_LIMIT_LOGIN_PER_IP: bad }, features)
      } catch (caught) {
        error = caught
      }
      expect(error, bad).toBeInstanceOf(EnvError)
      expect((error as EnvError).lines, bad).toEqual([expect.stringMatching(/^Invalid environment variable RATE_LIMIT_LOGIN_PER_IP: /)])
    }
    expect(parseEnv({ ...base, RATE_LIMIT_LOGIN_PER_IP: '250' }, features).RATE_LIMIT_LOGIN_PER_IP).toBe(250)
    expect(parseEnv(base, features).RATE_LIMIT_LOGIN_PER_IP).toBeUndefined()
  })
})

describe('register limits', () => {
  it('allows at least 10 registrations a minute from one IP', async () => {
    const { app, ctx } = await t.build()
    // 201 signed in, or 202 "check your inbox" when verification is on.
    const accepted = ctx.auth.requireEmailVerification ? 202 : 201
    for (let i = 0; i < 10; i++) {
      await supertest(app).post('/api/auth/register').send({ name: 'R', email: uniqueEmail('burst'), password: PASSWORD }).expect(accepted)
    }
  })

  it('limits by IP and by e-mail and IP', async () => {
    const { app } = await t.build({
      auth: { requireEmailVerification: true },
      rateLimits: { registerPerIp: { limit: 4, windowMs: 60_000 }, registerPerEmailIp: { limit: 2, windowMs: 60_000 } },
    })
    const email = uniqueEmail('same')
    const register = (address: string) => supertest(app).post('/api/auth/register').send({ name: 'R', email: address, password: PASSWORD })
    await register(email).expect(202)
    await register(email.toUpperCase()).expect(202)
    expectThrottled(await register(email))
    // The throttled attempt still counted for the IP: four so far.
    await register(uniqueEmail('other')).expect(202)
    expectThrottled(await register(uniqueEmail('another')))
  })
})

describe.each(['forgot-password', 'resend-verification'])('%s limits', (route) => {
  it('limits per e-mail and IP (default 5 a minute) whether or not the address exists', async () => {
    const { app } = await t.build()
    for (const email of [(await makeUser()).email, uniqueEmail('ghost')]) {
      for (let i = 0; i < defaultRateLimits(features).mailPerEmailIp.limit; i++) {
        await supertest(app).post(`/api/auth/${route}`).send({ email }).expect(200)
      }
      expectThrottled(await supertest(app).post(`/api/auth/${route}`).send({ email }))
    }
  })

  it('limits per IP', async () => {
    const { app } = await t.build({ rateLimits: { mailPerIp: { limit: 2, windowMs: 60_000 } } })
    for (let i = 0; i < 2; i++) await supertest(app).post(`/api/auth/${route}`).send({ email: uniqueEmail() }).expect(200)
    expectThrottled(await supertest(app).post(`/api/auth/${route}`).send({ email: uniqueEmail() }))
  })
})

describe('signed-in writes', () => {
  it('every write under /api/account counts per user (a ceremony or a flow stores a row); reads and other users do not', async () => {
    const { app } = await t.build({ rateLimits: { accountWritesPerUser: { limit: 3, windowMs: 60_000 } } })
    const [user, other] = [await makeUser(), await makeUser()]
    const { cookies } = await login(app, user.email)
    for (let i = 0; i < 3; i++) {
      await supertest(app).patch('/api/account/profile').set(withCookies(cookies)).send({ name: `Name ${i}` }).expect(200)
      await supertest(app).get('/api/account/sessions').set(withCookies(cookies)).expect(200)
    }
    expectThrottled(await supertest(app).patch('/api/account/profile').set(withCookies(cookies)).send({ name: 'One too many' }))
    await supertest(app).get('/api/account/sessions').set(withCookies(cookies)).expect(200)
    const others = (await login(app, other.email)).cookies
    await supertest(app).patch('/api/account/profile').set(withCookies(others)).send({ name: 'Fine' }).expect(200)
  })
})

describe.skipIf(!redisUrl)(`limits shared through Redis${redisLabel}`, () => {
  it('two instances of the app count failed logins together', async () => {
    const shared = `${inject('keyPrefix')}${randomUUID().slice(0, 8)}:`
    const a = await t.build({ redis: true, keyPrefix: shared })
    const b = await t.build({ redis: true, keyPrefix: shared })
    const user = await makeUser()
    for (let i = 0; i < 3; i++) await loginAs(a.app, user.email, 'wrong password').expect(422)
    for (let i = 0; i < 2; i++) await loginAs(b.app, user.email, 'wrong password').expect(422)
    expectThrottled(await loginAs(a.app, user.email, PASSWORD))
    expectThrottled(await loginAs(b.app, user.email, PASSWORD))
    // A third instance with its own namespace has its own counters.
    const c = await t.build({ redis: true })
    await loginAs(c.app, user.email, PASSWORD).expect(200)
  })

  it('a success on one instance clears the counter for all', async () => {
    const shared = `${inject('keyPrefix')}${randomUUID().slice(0, 8)}:`
    const a = await t.build({ redis: true, keyPrefix: shared })
    const b = await t.build({ redis: true, keyPrefix: shared })
    const user = await makeUser()
    for (let i = 0; i < 4; i++) await loginAs(a.app, user.email, 'wrong password').expect(422)
    await loginAs(b.app, user.email, PASSWORD).expect(200)
    for (let i = 0; i < 5; i++) await loginAs(a.app, user.email, 'wrong password').expect(422)
    expectThrottled(await loginAs(b.app, user.email, 'wrong password'))
  })
})

describe('mail limits', () => {
  it('the defaults: 5 a minute and 10 an hour per address and client, besides the per-IP limit', () => {
    expect(defaultRateLimits(features).mailPerEmailIp).toEqual({ limit: 5, windowMs: 60_000 })
    expect(defaultRateLimits(features).mailPerEmailIpHourly).toEqual({ limit: 10, windowMs: 3_600_000 })
    expect(defaultRateLimits(features).mailPerIp.windowMs).toBe(60_000)
  })
})
