import { Redis } from 'ioredis'
import supertest from 'supertest'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { security } from '../src/kernel/config/security.js'
import { jar, setCookies, unsign } from './helpers/cookies.js'
import { makeUser, names, PASSWORD, redisLabel, redisUrl, uniqueEmail, useTestApps, withCookies, type TestApp } from './helpers/test-app.js'

const t = useTestApps()

describe('guest sessions without Redis (disabled store)', () => {
  let app: TestApp['app']
  beforeAll(async () => {
    ;({ app } = await t.build({ redis: false }))
  })

  it('GET /api/session: {id: null, enabled: false, data: {}} and no cookie', async () => {
    const res = await supertest(app).get('/api/session')
    expect(res.status).toBe(200)
    expect(res.body).toEqual({ id: null, enabled: false, data: {} })
    expect(setCookies(res).has(names().session)).toBe(false)
  })

  it('PATCH stores nothing and raises no error', async () => {
    const res = await supertest(app).patch('/api/session').send({ cart: [1, 2] })
    expect(res.status).toBe(200)
    expect(res.body).toEqual({ id: null, enabled: false, data: {} })
  })

  it('refuses JSON that is not an object (422) and nesting deeper than 32 levels, without a 5xx', async () => {
    // Well-formed JSON of the wrong shape is a validation error (422), as the README says;
    // only JSON that does not parse is a 400.
    for (const body of ['[1,2]', '"text"', 'null', 'false', '42']) {
      const res = await supertest(app).patch('/api/session').set('Content-Type', 'application/json').send(body)
      expect(res.status, body).toBe(422)
      expect(typeof res.body.message, body).toBe('string')
    }
    const malformed = await supertest(app).patch('/api/session').set('Content-Type', 'application/json').send('{"a":')
    expect(malformed.status).toBe(400)
    const array = await supertest(app).patch('/api/session').send([1, 2])
    expect(array.status).toBe(422)
    const deep = await supertest(app).patch('/api/session').set('Content-Type', 'application/json').send(`{"a":${'['.repeat(5000)}${']'.repeat(5000)}}`)
    expect(deep.status).toBe(422)
    expect(typeof deep.body.message).toBe('string')
  })

  it('login works with the store disabled', async () => {
    const user = await makeUser()
    await supertest(app).post('/api/auth/login').send({ email: user.email, password: PASSWORD }).expect(200)
  })
})

describe.skipIf(!redisUrl)(`guest sessions on Redis${redisLabel}`, () => {
  let built: TestApp
  let redis: Redis
  beforeAll(async () => {
    built = await t.build({ redis: true })
    redis = new Redis(redisUrl!)
  })
  afterAll(async () => {
    await redis?.quit()
  })
  const app = () => built.app

  it('issues a signed session cookie (HttpOnly, Max-Age 7200) and keeps data under that id', async () => {
    const first = await supertest(app()).get('/api/session')
    expect(first.body).toMatchObject({ enabled: true, data: {} })
    expect(typeof first.body.id).toBe('string')
    const cookie = setCookies(first).get(names().session)!
    expect(cookie.maxAge).toBe(security.sessionTtlSeconds)
    expect(cookie.attributes).toMatchObject({ httponly: true, path: '/', samesite: 'Lax' })
    expect(unsign(cookie.raw)).toBe(first.body.id)

    const cookies = jar(first)
    const patched = await supertest(app()).patch('/api/session').set(withCookies(cookies)).send({ theme: 'dark', cart: { items: [1] } })
    expect(patched.body).toEqual({ id: first.body.id, enabled: true, data: { theme: 'dark', cart: { items: [1] } } })
    const merged = await supertest(app()).patch('/api/session').set(withCookies(cookies)).send({ lang: 'fr', theme: null })
    expect(merged.body.data).toEqual({ cart: { items: [1] }, lang: 'fr' })
    const read = await supertest(app()).get('/api/session').set(withCookies(cookies))
    expect(read.body).toEqual(merged.body)

    const ttl = await redis.ttl(`${built.ctx.keyPrefix}session:${first.body.id}`)
    expect(ttl).toBeGreaterThan(security.sessionTtlSeconds - 60)
    expect(ttl).toBeLessThanOrEqual(security.sessionTtlSeconds)
  })

  it('offers get and set on req.guestSession to server code', async () => {
    const res = await supertest(app()).get('/api/session')
    const cookies = jar(res)
    await supertest(app()).patch('/api/session').set(withCookies(cookies)).send({ step: 2 })
    const store = built.ctx.sessions
    expect(await store.get(res.body.id, 'step')).toBe(2)
    await store.set(res.body.id, 'step', 3)
    expect((await supertest(app()).get('/api/session').set(withCookies(cookies))).body.data).toEqual({ step: 3 })
  })

  it('ignores a forged session cookie and hands out a new id', async () => {
    const res = await supertest(app()).get('/api/session').set('Cookie', `${names().session}=${'a'.repeat(43)}`)
    expect(res.body.id).not.toBe('a'.repeat(43))
    expect(setCookies(res).has(names().session)).toBe(true)
  })

  it('enforces 32 keys and 4 KiB', async () => {
    const cookies = jar(await supertest(app()).get('/api/session'))
    const tooMany = Object.fromEntries(Array.from({ length: 33 }, (_, i) => [`k${i}`, i]))
    const many = await supertest(app()).patch('/api/session').set(withCookies(cookies)).send(tooMany)
    expect(many.status).toBe(422)
    const big = await supertest(app()).patch('/api/session').set(withCookies(cookies)).send({ blob: 'x'.repeat(4100) })
    expect(big.status).toBe(422)
    const ok = await supertest(app()).patch('/api/session').set(withCookies(cookies)).send(Object.fromEntries(Array.from({ length: 32 }, (_, i) => [`k${i}`, i])))
    expect(ok.status).toBe(200)
    expect(Object.keys(ok.body.data)).toHaveLength(32)
  })

  it('refuses a body that is not an object of keys', async () => {
    const cookies = jar(await supertest(app()).get('/api/session'))
    const res = await supertest(app()).patch('/api/session').set(withCookies(cookies)).send({ '': 1 })
    expect(res.status).toBe(422)
    const array = await supertest(app()).patch('/api/session').set(withCookies(cookies)).send(['a', 'b'])
    expect(array.status).toBe(422)
    const nested = (depth: number) => JSON.parse(`{"a":${'['.repeat(depth)}${']'.repeat(depth)}}`) as object
    expect((await supertest(app()).patch('/api/session').set(withCookies(cookies)).send(nested(security.sessionMaxDepth - 1))).status).toBe(200)
    expect((await supertest(app()).patch('/api/session').set(withCookies(cookies)).send(nested(security.sessionMaxDepth))).status).toBe(422)
  })

  it('a login replaces the session id (no fixation) and keeps the data', async () => {
    const guest = await supertest(app()).get('/api/session')
    const planted = guest.body.id as string
    let cookies = jar(guest)
    await supertest(app()).patch('/api/session').set(withCookies(cookies)).send({ cart: ['book'] })

    const user = await makeUser()
    const loginRes = await supertest(app()).post('/api/auth/login').set(withCookies(cookies)).send({ email: user.email, password: PASSWORD })
    expect(loginRes.status).toBe(200)
    const newId = unsign(setCookies(loginRes).get(names().session)!.raw)
    expect(newId).not.toBe(planted)
    cookies = jar(loginRes, cookies)

    const after = await supertest(app()).get('/api/session').set(withCookies(cookies))
    expect(after.body).toEqual({ id: newId, enabled: true, data: { cart: ['book'] } })
    // Whoever planted the old id learns nothing from it.
    const attacker = await supertest(app()).get('/api/session').set(withCookies(jar(guest)))
    expect(attacker.body.data).toEqual({})
  })

  it('logout destroys the session and clears its cookie with the auth cookies; the next use starts a fresh, empty one', async () => {
    const user = await makeUser()
    const loginRes = await supertest(app()).post('/api/auth/login').send({ email: user.email, password: PASSWORD })
    let cookies = jar(loginRes)
    const before = jar(await supertest(app()).patch('/api/session').set(withCookies(cookies)).send({ secret: 'mine' }), cookies)
    const out = await supertest(app()).post('/api/auth/logout').set(withCookies(before)).expect(204)
    const set = setCookies(out)
    expect([...set.keys()].sort()).toEqual([names().access, names().refresh, names().session].sort())
    for (const cookie of set.values()) expect(cookie.cleared).toBe(true)
    cookies = jar(out, before)
    expect(cookies).toEqual({})
    const res = await supertest(app()).get('/api/session').set(withCookies(cookies))
    expect(res.body.data).toEqual({})
    expect(res.body.id).not.toBe(unsign(before[names().session]!))
    // The old id is worthless too.
    expect((await supertest(app()).get('/api/session').set(withCookies({ [names().session]: before[names().session]! }))).body.data).toEqual({})
  })

  it('sets the session cookie only when the session is used: not on register, login or health', async () => {
    const { app: verifying } = await t.build({ redis: true, auth: { requireEmailVerification: true } })
    const register = await supertest(verifying).post('/api/auth/register').send({ name: 'N', email: uniqueEmail('lazy'), password: PASSWORD })
    expect(register.status).toBe(202)
    expect(register.headers['set-cookie']).toBeUndefined()
    expect((await supertest(app()).get('/api/health')).headers['set-cookie']).toBeUndefined()
    const user = await makeUser()
    const login = await supertest(app()).post('/api/auth/login').send({ email: user.email, password: PASSWORD })
    expect([...setCookies(login).keys()].sort()).toEqual([names().access, names().refresh].sort())
  })

  it('limits new sessions per IP (429 with Retry-After), so anonymous clients cannot fill Redis; a session in use is never limited', async () => {
    const { app: limited, ctx } = await t.build({ redis: true, rateLimits: { sessionCreatePerIp: { limit: 3, windowMs: 60_000 } } })
    const body = { blob: 'x'.repeat(3900) }
    const created: Array<Record<string, string>> = []
    for (let i = 0; i < 3; i++) {
      const res = await supertest(limited).patch('/api/session').send(body).expect(200)
      created.push(jar(res))
    }
    const refused = await supertest(limited).patch('/api/session').send(body)
    expect(refused.status).toBe(429)
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0)
    expect(refused.body.message).toEqual(expect.any(String))
    expect(refused.headers['set-cookie']).toBeUndefined()
    // Writing to a session the client already holds is not creating one.
    for (let i = 0; i < 5; i++) await supertest(limited).patch('/api/session').set(withCookies(created[0]!)).send({ n: i }).expect(200)
    expect(await redis.keys(`${ctx.keyPrefix}session:*`)).toHaveLength(3)
  })
})
