import supertest from 'supertest'
import { beforeAll, describe, expect, it } from 'vitest'
import { login, makeUser, names, useTestApps, withCookies, type TestApp } from './helpers/test-app.js'

const t = useTestApps()

/** Nothing that reveals internals: stack frames, SQL, driver or ORM names. */
const LEAK = /\n\s+at |"stack"|\bSELECT |\bINSERT INTO|\bUPDATE [`"]|\bDELETE FROM|[Ss]equelize|SQLITE|sqlite3|[Mm]y[Ss][Qq][Ll]|\bER_[A-Z]|[Pp]ostgre[Ss]|duplicate key|node_modules/

function expectCleanError(res: supertest.Response) {
  expect(res.status).toBeLessThan(500)
  expect(res.status).toBeGreaterThanOrEqual(400)
  expect(typeof res.body.message).toBe('string')
  expect(res.text).not.toMatch(LEAK)
  if (res.body.errors !== undefined) {
    for (const [key, messages] of Object.entries(res.body.errors as Record<string, unknown>)) {
      expect(key).toMatch(/^[\w.]+$/)
      expect(Array.isArray(messages)).toBe(true)
    }
  }
}

describe('error responses', () => {
  let app: TestApp['app']
  let adminEmail: string
  let admin: Record<string, string>
  beforeAll(async () => {
    ;({ app } = await t.build({ redis: false }))
    adminEmail = (await makeUser({ role: 'admin' })).email
    admin = (await login(app, adminEmail)).cookies
  })

  it('400 for malformed JSON', async () => {
    const res = await supertest(app).post('/api/auth/login').set('Content-Type', 'application/json').send('{"email": ')
    expect(res.status).toBe(400)
    expect(res.body).toEqual({ message: 'Malformed JSON.' })
  })

  it('413 for a body over 100 KB', async () => {
    const res = await supertest(app).post('/api/auth/login').send({ email: 'a@b.test', password: 'x'.repeat(101 * 1024) })
    expect(res.status).toBe(413)
    expect(typeof res.body.message).toBe('string')
  })

  it('413 for a body over 100 KB of any content type; a small non-JSON body is simply ignored (422)', async () => {
    for (const type of ['text/plain', 'application/x-www-form-urlencoded', 'application/octet-stream', 'application/merge-patch+json']) {
      const big = await supertest(app).post('/api/auth/login').set('Content-Type', type).send('x'.repeat(101 * 1024))
      expect(big.status, type).toBe(413)
      expect(Object.keys(big.body), type).toEqual(['message'])
    }
    const small = await supertest(app).post('/api/auth/login').set('Content-Type', 'text/plain').send('email=a@b.test')
    expect(small.status).toBe(422)
    expect(Object.keys(small.body.errors).sort()).toEqual(['email', 'password'])
    const merge = await supertest(app).post('/api/auth/login').set('Content-Type', 'application/merge-patch+json').send('{"email": ')
    expect(merge.status).toBe(400)
  })

  it('404 for an unknown /api route or method', async () => {
    for (const res of [
      await supertest(app).get('/api/nope'),
      await supertest(app).get('/api/auth/login'),
      await supertest(app).put('/api/users'),
      await supertest(app).post('/api'),
    ]) {
      expect(res.status).toBe(404)
      expect(res.body).toEqual({ message: 'Not Found.' })
    }
  })

  it('422 with field errors keyed by dotted path', async () => {
    const res = await supertest(app).delete('/api/users').set(withCookies(admin)).send({ ids: [1, 'x'] })
    expect(res.status).toBe(422)
    expect(Object.keys(res.body.errors)).toEqual(['ids.1'])
    expect(res.body.message).toBe(res.body.errors['ids.1'][0])
  })

  it('422 for a DELETE /api/users body that is not an object, precognitive or not', async () => {
    for (const body of ['"text"', '42', 'true', 'null', '[]', '[{"all":true}]']) {
      for (const precognition of [false, true]) {
        const req = supertest(app).delete('/api/users').set(withCookies(admin)).set('Content-Type', 'application/json')
        if (precognition) req.set('Precognition', 'true')
        const res = await req.send(body)
        expect(res.status, `${body}${precognition ? ' (Precognition)' : ''}`).toBe(422)
        expect(res.body).toEqual({ message: expect.any(String), errors: { ids: [expect.any(String)] } })
      }
    }
  })

  it('a summary message that counts the further errors', async () => {
    const res = await supertest(app).post('/api/auth/register').send({})
    expect(res.status).toBe(422)
    expect(res.body.message).toMatch(/\(and 2 more errors\)$/)
  })

  const weirdBodies: unknown[] = [
    null,
    [],
    [1, 2],
    42,
    'text',
    true,
    {},
    { email: { $gt: '' }, password: { $ne: null } },
    { email: ['a@b.test'], password: ['x'] },
    { email: `${'a'.repeat(300)}@example.test`, password: 'p'.repeat(200), name: 'n'.repeat(1000) },
    { email: 'a@b.test', password: 'pass\u0000word', name: '\u0000' },
    { email: '\ud800@b.test', password: '\ud800\udfff\ud800abcdefgh', name: '😀'.repeat(300) },
    { email: 'a@b.test', token: { length: 1 }, refresh_token: 12345, remember: 'yes', ids: { 0: 1 } },
    { email: 'a@b.test', token: 'x'.repeat(10_000), password: 'abcdefgh' },
    JSON.parse('{"__proto__": {"admin": true}, "constructor": {"prototype": {"isAdmin": true}}, "email": "a@b.test"}'),
    JSON.parse('{"a":' + '['.repeat(500) + ']'.repeat(500) + '}'),
  ]
  const routes: Array<[string, string, boolean]> = [
    ['post', '/api/auth/register', false],
    ['post', '/api/auth/login', false],
    ['post', '/api/auth/forgot-password', false],
    ['post', '/api/auth/reset-password', false],
    ['post', '/api/auth/verify-email', false],
    ['post', '/api/auth/resend-verification', false],
    ['post', '/api/auth/refresh-token', false],
    ['post', '/api/auth/logout', true],
    ['patch', '/api/session', false],
    ['delete', '/api/users', true],
  ]

  it('no body of any shape yields a 5xx or leaks internals', async () => {
    for (const [method, path, authed] of routes) {
      for (const body of weirdBodies) {
        const req = (supertest(app) as unknown as Record<string, (p: string) => supertest.Test>)[method]!(path)
        // A logout ends the session it is sent with: it gets one of its own, so that the routes
        // after it are reached signed in rather than stopped at a 401.
        if (authed) req.set(withCookies(path === '/api/auth/logout' ? (await login(app, adminEmail)).cookies : admin))
        const res = await req.set('Content-Type', 'application/json').send(JSON.stringify(body))
        if (authed) expect(res.status, `${method} ${path} ${JSON.stringify(body)}`).not.toBe(401)
        if (res.status < 400) continue
        expectCleanError(res)
      }
    }
  })

  it('JSON nested 20,000 levels deep (a 40 KB body) yields no 5xx on any route', async () => {
    const deep = `{"a":${'['.repeat(20_000)}${']'.repeat(20_000)},"email":"a@b.test"}`
    for (const [method, path, authed] of routes) {
      const req = (supertest(app) as unknown as Record<string, (p: string) => supertest.Test>)[method]!(path)
      if (authed) req.set(withCookies(path === '/api/auth/logout' ? (await login(app, adminEmail)).cookies : admin))
      const res = await req.set('Content-Type', 'application/json').send(deep)
      if (authed) expect(res.status, `${method} ${path}`).not.toBe(401)
      if (res.status < 400) continue
      expectCleanError(res)
    }
  })

  it('no odd content type, query, cookie or URL yields a 5xx', async () => {
    const odd = [
      supertest(app).post('/api/auth/login').set('Content-Type', 'text/plain').send('email=a&password=b'),
      supertest(app).post('/api/auth/login').set('Content-Type', 'application/x-www-form-urlencoded').send('email=a@b.test&password=b'),
      supertest(app).post('/api/auth/login').set('Content-Type', 'application/json; charset=utf-7').send('{}'),
      supertest(app).post('/api/auth/login').set('Content-Type', 'application/json').set('Content-Encoding', 'br').send('{}'),
      supertest(app).get('/api/users?page[]=1&size=1&size=2&search[x]=1').set(withCookies(admin)),
      supertest(app).get('/api/users?search=%').set(withCookies(admin)),
      supertest(app).get('/api/users?search=a%00b').set(withCookies(admin)),
      supertest(app).get('/api/users?page=99999999999999999999').set(withCookies(admin)),
      supertest(app).get('/api/auth/me').set('Cookie', `${names().access}=s%3A%E0%A4%A; ${names().refresh}=%%%`),
      supertest(app).get('/api/auth/me').set('Authorization', 'Bearer'),
      supertest(app).get('/api/auth/me').set('Authorization', `Bearer ${'x'.repeat(8000)}`),
      supertest(app).get('/api/%E0%A4%A'),
      supertest(app).get('/api/auth/%'),
    ]
    for (const res of await Promise.all(odd)) {
      expect(res.status).toBeLessThan(500)
      expect(res.text).not.toMatch(LEAK)
    }
  })
})

describe('server errors', () => {
  it('a bug is a 500 Server Error. without details, logged as an error', async () => {
    const { app, ctx, logger } = await t.build()
    // A handler that throws what no dependency outage looks like.
    ctx.authCache.user = () => Promise.reject(new TypeError('boom: a programming error'))
    const user = await makeUser()
    const session = await login(app, user.email)
    const res = await supertest(app).get('/api/auth/me').set(withCookies(session.cookies))
    expect(res.status).toBe(500)
    expect(res.body).toEqual({ message: 'Server Error.' })
    expect(res.text).not.toMatch(/boom|TypeError/)
    expect(logger.records().find((entry) => entry.msg === 'Request failed')).toMatchObject({ level: 50, url: '/api/auth/me' })
  })
})

describe('a database that is gone', () => {
  it('is a 503 Service Unavailable. with Retry-After (never a 500 or a detail), logged as a warning', async () => {
    const { app, logger } = await t.build()
    const user = await makeUser()
    const session = await login(app, user.email)
    await (await t.database()).close()

    for (const res of [
      await supertest(app).post('/api/auth/login').send({ email: user.email, password: 'whatever1' }),
      await supertest(app).get('/api/auth/me').set(withCookies({ [names().refresh]: session.cookies[names().refresh]! })),
    ]) {
      expect(res.status).toBe(503)
      expect(res.body).toEqual({ message: 'Service Unavailable.' })
      expect(Number(res.headers['retry-after'])).toBeGreaterThan(0)
    }
    // Logged as one structured record, with the error and the request it stopped.
    const record = logger.records().find((entry) => entry.msg === 'Dependency unavailable' && entry.url === '/api/auth/login')
    expect(record).toMatchObject({ level: 40, method: 'POST', err: { type: expect.any(String), message: expect.any(String) } })

    const health = await supertest(app).get('/api/health')
    expect(health.status).toBe(503)
    expect(health.body).toEqual({ status: 'error', db: 'error', redis: 'disabled' })
  })
})
