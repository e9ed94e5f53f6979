import supertest from 'supertest'
import { beforeAll, describe, expect, it } from 'vitest'
import { RefreshToken } from '../src/kernel/models/index.js'
import { setCookies, unsign, type SetCookie } from './helpers/cookies.js'
import { decodeJwt } from './helpers/jwt.js'
import { login, makeUser, names, useTestApps, withCookies, type TestApp } from './helpers/test-app.js'

const t = useTestApps()

const jtiOf = (cookies: Record<string, string>) => decodeJwt(unsign(cookies[names().refresh]!)).payload.jti as string
const attributesWithoutLifetime = (cookie: SetCookie | undefined) => {
  const { expires: _expires, 'max-age': _maxAge, ...rest } = cookie?.attributes ?? {}
  return rest
}

function expectClearedLikeSet(set: Map<string, SetCookie>, cleared: Map<string, SetCookie>) {
  for (const name of [names().access, names().refresh]) {
    expect(cleared.get(name)?.cleared).toBe(true)
    expect(cleared.get(name)?.raw).toBe('')
    // Deleted both ways a client may look for: Max-Age=0 and an Expires in the past.
    expect(cleared.get(name)?.maxAge).toBe(0)
    expect(Date.parse(cleared.get(name)?.attributes.expires as string)).toBe(0)
    expect(attributesWithoutLifetime(cleared.get(name))).toEqual(attributesWithoutLifetime(set.get(name)))
  }
}

describe.each<[string, Record<string, string>]>([
  ['SameSite=Lax', {}],
  ['SameSite=None (cross-origin)', { COOKIE_SAMESITE: 'none', CORS_ORIGINS: 'https://admin.example.test' }],
])('logout with %s', (_label, env) => {
  let app: TestApp['app']
  beforeAll(async () => {
    ;({ app } = await t.build({ env }))
  })

  it('POST /logout: 204, revokes only this session\'s refresh token, clears cookies with the attributes they were set with', async () => {
    const user = await makeUser()
    const here = await login(app, user.email)
    const elsewhere = await login(app, user.email)
    const res = await supertest(app).post('/api/auth/logout').set(withCookies(here.cookies))
    expect(res.status).toBe(204)
    expectClearedLikeSet(setCookies(here.res), setCookies(res))
    if (env.COOKIE_SAMESITE === 'none') {
      expect(setCookies(res).get(names().access)?.attributes).toMatchObject({ samesite: 'None', secure: true })
    }
    expect((await RefreshToken.findOne({ where: { jti: jtiOf(here.cookies) } }))?.revoked).toBe(true)
    expect((await RefreshToken.findOne({ where: { jti: jtiOf(elsewhere.cookies) } }))?.revoked).toBe(false)
    await supertest(app).post('/api/auth/refresh-token').set(withCookies(here.cookies)).expect(401)
    await supertest(app).post('/api/auth/refresh-token').set(withCookies(elsewhere.cookies)).expect(200)
  })

  it('POST /logout-all: 204, revokes every refresh token of the user and no one else\'s', async () => {
    const user = await makeUser()
    const other = await makeUser()
    const a = await login(app, user.email)
    const b = await login(app, user.email)
    const c = await login(app, other.email)
    const res = await supertest(app).post('/api/auth/logout-all').set(withCookies(a.cookies))
    expect(res.status).toBe(204)
    expectClearedLikeSet(setCookies(a.res), setCookies(res))
    expect(await RefreshToken.count({ where: { userId: user.id, revoked: false } })).toBe(0)
    expect(await RefreshToken.count({ where: { userId: other.id, revoked: false } })).toBe(1)
    await supertest(app).post('/api/auth/refresh-token').set(withCookies(b.cookies)).expect(401)
    await supertest(app).post('/api/auth/refresh-token').set(withCookies(c.cookies)).expect(200)
  })
})

describe('logout guards', () => {
  it('both routes need authentication', async () => {
    const { app } = await t.build()
    await supertest(app).post('/api/auth/logout').expect(401)
    await supertest(app).post('/api/auth/logout-all').expect(401)
  })

  it('logout with an expired access token sends one Set-Cookie per cookie: the clearing one', async () => {
    const { app } = await t.build()
    const user = await makeUser()
    const session = await login(app, user.email)
    const { [names().access]: _expired, ...refreshOnly } = session.cookies
    const res = await supertest(app).post('/api/auth/logout').set(withCookies(refreshOnly))
    expect(res.status).toBe(204)
    const lines = res.headers['set-cookie'] as unknown as string[]
    expect(lines.filter((line) => line.startsWith(`${names().access}=`))).toHaveLength(1)
    expect(setCookies(res).get(names().access)?.cleared).toBe(true)
  })

  it('after logout the access cookie alone no longer renews', async () => {
    const { app } = await t.build()
    const user = await makeUser()
    const session = await login(app, user.email)
    await supertest(app).post('/api/auth/logout').set(withCookies(session.cookies)).expect(204)
    const { [names().access]: _dropped, ...refreshOnly } = session.cookies
    await supertest(app).get('/api/auth/me').set(withCookies(refreshOnly)).expect(401)
  })
})
