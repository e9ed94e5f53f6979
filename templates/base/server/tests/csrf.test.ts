import supertest from 'supertest'
import { beforeAll, describe, expect, it } from 'vitest'
import { login, makeUser, useTestApps, withCookies, type TestApp } from './helpers/test-app.js'

const t = useTestApps()
const TRUSTED = 'https://admin.example.test'

describe.each([
  ['lax', { CORS_ORIGINS: TRUSTED }],
  ['none', { COOKIE_SAMESITE: 'none', CORS_ORIGINS: TRUSTED }],
])('CSRF and CORS with SameSite=%s', (_sameSite, env) => {
  let app: TestApp['app']
  let cookies: Record<string, string>
  beforeAll(async () => {
    ;({ app } = await t.build({ env }))
    cookies = (await login(app, (await makeUser()).email)).cookies
  })
  const logoutAll = () => supertest(app).post('/api/auth/logout-all').set(withCookies(cookies))

  it.each([
    ['a foreign Origin', { Origin: 'https://evil.example' }],
    ['Origin: null', { Origin: 'null' }],
    ['a look-alike Origin', { Origin: 'http://localhost:3000.evil.example' }],
    ['a foreign Referer', { Referer: 'https://evil.example/page' }],
    // Same host and port, another scheme: another origin, however the host matches.
    ['the app host over https', { Origin: 'https://localhost:3000' }],
    ['the app host over ws', { Origin: 'ws://localhost:3000' }],
    ['the app host over ftp', { Origin: 'ftp://localhost:3000' }],
    ['a Referer of the app host over https', { Referer: 'https://localhost:3000/page' }],
    ['Sec-Fetch-Site: cross-site', { 'Sec-Fetch-Site': 'cross-site' }],
  ])('refuses a state-changing request with cookies from %s (403)', async (_label, headers) => {
    const res = await logoutAll().set(headers)
    expect(res.status).toBe(403)
    expect(res.body).toEqual({ message: 'Forbidden.' })
  })

  it('refuses a cross-site PATCH of the guest session and DELETE of users', async () => {
    await supertest(app).patch('/api/session').set(withCookies(cookies)).set('Origin', 'https://evil.example').send({}).expect(403)
    await supertest(app).delete('/api/users').set(withCookies(cookies)).set('Origin', 'https://evil.example').send({ ids: [1] }).expect(403)
  })

  it('accepts the app origin, a listed CORS origin and a same-origin Referer', async () => {
    const session = async () => (await login(app, (await makeUser()).email)).cookies
    for (const headers of [{ Origin: 'http://localhost:3000' }, { Origin: TRUSTED }, { Referer: 'http://localhost:3000/dashboard' }, { 'Sec-Fetch-Site': 'same-origin' }]) {
      await supertest(app).post('/api/auth/logout').set(withCookies(await session())).set(headers).expect(204)
    }
  })

  it('trusts no origin for naming the Host it was sent to (Host or X-Forwarded-Host)', async () => {
    const session = (await login(app, (await makeUser()).email)).cookies
    const logout = (headers: Record<string, string>) => supertest(app).post('/api/auth/logout').set(withCookies(session)).set(headers)
    const spoofs: Array<Record<string, string>> = [
      { Host: '127.0.0.1:3000@evil.example', Origin: 'http://127.0.0.1:3000@evil.example' },
      { Host: 'evil.example', Origin: 'http://evil.example' },
      { Host: '127.0.0.1:4321', Origin: 'http://127.0.0.1:4321' },
      { Host: '127.0.0.1:4321', Referer: 'http://127.0.0.1:4321/dashboard' },
      { 'X-Forwarded-Host': 'evil.example', 'X-Forwarded-Proto': 'https', Origin: 'https://evil.example' },
    ]
    for (const headers of spoofs) {
      const res = await logout(headers)
      expect(res.status, JSON.stringify(headers)).toBe(403)
      expect(res.body).toEqual({ message: 'Forbidden.' })
    }
    // BASE_URL's origin is trusted whatever the request names as its Host.
    await logout({ Host: 'evil.example', Origin: 'http://localhost:3000' }).expect(204)
  })

  it('lets safe methods through (they change nothing)', async () => {
    await supertest(app).get('/api/auth/me').set(withCookies(cookies)).set('Origin', 'https://evil.example').expect(200)
  })

  it('CORS answers only listed origins, with credentials, and never reflects others', async () => {
    const allowed = await supertest(app).options('/api/auth/login').set('Origin', TRUSTED).set('Access-Control-Request-Method', 'POST')
    expect(allowed.headers['access-control-allow-origin']).toBe(TRUSTED)
    expect(allowed.headers['access-control-allow-credentials']).toBe('true')
    const denied = await supertest(app).options('/api/auth/login').set('Origin', 'https://evil.example').set('Access-Control-Request-Method', 'POST')
    expect(denied.headers['access-control-allow-origin']).toBeUndefined()
    const get = await supertest(app).get('/api/health').set('Origin', 'https://evil.example')
    expect(get.headers['access-control-allow-origin']).toBeUndefined()
  })
})

describe('without CORS_ORIGINS', () => {
  it('only the app origin is trusted', async () => {
    const { app } = await t.build()
    const { cookies } = await login(app, (await makeUser()).email)
    await supertest(app).post('/api/auth/logout').set(withCookies(cookies)).set('Origin', TRUSTED).expect(403)
    const res = await supertest(app).get('/api/health').set('Origin', TRUSTED)
    expect(res.headers['access-control-allow-origin']).toBeUndefined()
    await supertest(app).post('/api/auth/logout').set(withCookies(cookies)).set('Origin', 'http://localhost:3000').expect(204)
  })

  it('behind a trusted proxy, the forwarded scheme and host make no origin trusted either', async () => {
    const { app } = await t.build({ env: { TRUST_PROXY: 'true' } })
    const { cookies } = await login(app, (await makeUser()).email)
    const logout = (headers: Record<string, string>) => supertest(app).post('/api/auth/logout').set(withCookies(cookies)).set(headers)
    await logout({ Host: 'evil.example', 'X-Forwarded-Proto': 'https', Origin: 'https://evil.example' }).expect(403)
    await logout({ 'X-Forwarded-Host': 'evil.example', 'X-Forwarded-Proto': 'https', Origin: 'https://evil.example' }).expect(403)
    await logout({ Host: 'evil.example', 'X-Forwarded-Host': 'evil.example', Origin: 'http://localhost:3000' }).expect(204)
  })

  it('SameSite=None cookies are Secure; production cookies are Secure', async () => {
    const none = await t.build({ env: { COOKIE_SAMESITE: 'none', CORS_ORIGINS: TRUSTED } })
    const prod = await t.build({ env: { NODE_ENV: 'production' } })
    for (const { app } of [none, prod]) {
      const { res } = await login(app, (await makeUser()).email)
      for (const line of res.headers['set-cookie'] as unknown as string[]) expect(line).toMatch(/; Secure/)
    }
  })
})
