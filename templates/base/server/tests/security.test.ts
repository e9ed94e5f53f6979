import { KeyObject } from 'node:crypto'
import jwt from 'jsonwebtoken'
import supertest from 'supertest'
import { beforeAll, describe, expect, it } from 'vitest'
import { RefreshToken } from '../src/models/index.js'
import { createTokenKeys } from '../src/services/token-keys.js'
import { signAccessToken, verifyAccessToken } from '../src/services/tokens.js'
import { jar, setCookies, sign, unsign } from './helpers/cookies.js'
import { decodeJwt, forgeJwt, nowSeconds, tamperPayload } from './helpers/jwt.js'
import { login, makeUser, names, useTestApps, withCookies, type TestApp } from './helpers/test-app.js'

const t = useTestApps()

describe('token verification (each bad token: 401, never renewed)', () => {
  let app: TestApp['app']
  let secrets: typeof t.secrets
  let user: Awaited<ReturnType<typeof makeUser>>
  let session: Awaited<ReturnType<typeof login>>

  beforeAll(async () => {
    ;({ app } = await t.build())
    secrets = t.secrets
    user = await makeUser()
    session = await login(app, user.email)
  })

  const claims = () => {
    const iat = nowSeconds()
    return { sub: String(user.id), email: user.email, roleId: 1, role: 'admin', type: 'access', iat, exp: iat + 600 }
  }
  /** /me with a crafted access cookie next to a perfectly valid refresh cookie. */
  const meWithAccess = (token: string) =>
    supertest(app)
      .get('/api/auth/me')
      .set(withCookies({ [names().access]: sign(token, secrets.COOKIE_SECRET), [names().refresh]: session.cookies[names().refresh]! }))

  const badTokens: Array<[string, () => string]> = [
    ['alg none', () => forgeJwt('none', claims())],
    ['alg none with an empty signature of the right secret', () => forgeJwt('none', claims(), secrets.JWT_ACCESS_SECRET)],
    ['HS512 with the right secret', () => forgeJwt('HS512', claims(), secrets.JWT_ACCESS_SECRET)],
    ['HS384 with the right secret', () => forgeJwt('HS384', claims(), secrets.JWT_ACCESS_SECRET)],
    ['an edited payload (role: admin)', () => tamperPayload(session.accessToken, (p) => Object.assign(p, { role: 'admin', roleId: 1 }))],
    ['an edited payload (other user)', () => tamperPayload(session.accessToken, (p) => Object.assign(p, { sub: String(user.id + 1) }))],
    ['an edited signature', () => session.accessToken.slice(0, -4) + (session.accessToken.endsWith('AAAA') ? 'BBBB' : 'AAAA')],
    ['the wrong secret', () => forgeJwt('HS256', claims(), 'x'.repeat(64))],
    ['the refresh secret', () => forgeJwt('HS256', claims(), secrets.JWT_REFRESH_SECRET)],
    ['type refresh under the access secret', () => forgeJwt('HS256', { ...claims(), type: 'refresh', jti: 'x' }, secrets.JWT_ACCESS_SECRET)],
    ['no type', () => forgeJwt('HS256', { ...claims(), type: undefined }, secrets.JWT_ACCESS_SECRET)],
    ['the refresh token itself', () => unsign(session.cookies[names().refresh]!)],
    ['garbage', () => 'not.a.jwt'],
  ]

  it.each(badTokens)('rejects %s', async (_label, make) => {
    const res = await meWithAccess(make())
    expect(res.status).toBe(401)
    expect(res.body).toEqual({ message: 'Unauthenticated.' })
    expect(setCookies(res).has(names().access)).toBe(false)
  })

  it('accepts a correctly signed token (the forging helpers are sound)', async () => {
    const token = forgeJwt('HS256', { ...claims(), role: 'user', roleId: user.roleId }, secrets.JWT_ACCESS_SECRET)
    await meWithAccess(token).expect(200)
  })

  it('rejects an access cookie with a bad cookie signature or none', async () => {
    const forged = encodeURIComponent(`s:${session.accessToken}.bad`)
    await supertest(app)
      .get('/api/auth/me')
      .set(withCookies({ [names().access]: forged, [names().refresh]: session.cookies[names().refresh]! }))
      .expect(401)
    await supertest(app)
      .get('/api/auth/me')
      .set(withCookies({ [names().access]: session.accessToken, [names().refresh]: session.cookies[names().refresh]! }))
      .expect(401)
  })

  it('rejects the same bad tokens as a Bearer header', async () => {
    for (const [, make] of badTokens) {
      await supertest(app).get('/api/auth/me').set('Authorization', `Bearer ${make()}`).expect(401)
    }
    await supertest(app).get('/api/auth/me').set('Authorization', `Bearer ${session.accessToken}`).expect(200)
  })

  it('does not authorise from a decoded but unverified token: an edited role is no key to admin routes', async () => {
    const promoted = tamperPayload(session.accessToken, (p) => Object.assign(p, { role: 'admin', roleId: 1 }))
    await supertest(app).get('/api/users').set('Authorization', `Bearer ${promoted}`).expect(401)
    await supertest(app)
      .get('/api/users')
      .set(withCookies({ [names().access]: sign(promoted, secrets.COOKIE_SECRET) }))
      .expect(401)
  })

  it('enforces exp: an expired access token alone is 401', async () => {
    const expired = forgeJwt('HS256', { ...claims(), role: 'user', iat: nowSeconds() - 100, exp: nowSeconds() - 10 }, secrets.JWT_ACCESS_SECRET)
    await supertest(app)
      .get('/api/auth/me')
      .set(withCookies({ [names().access]: sign(expired, secrets.COOKIE_SECRET) }))
      .expect(401)
  })

  it('rejects bad refresh tokens at /refresh-token and in the middleware', async () => {
    const row = await RefreshToken.findOne({ where: { jti: decodeJwt(unsign(session.cookies[names().refresh]!)).payload.jti as string } })
    const base = { sub: String(user.id), jti: row!.jti, type: 'refresh', iat: nowSeconds(), exp: nowSeconds() + 600 }
    const bad = [
      forgeJwt('none', base),
      forgeJwt('HS512', base, secrets.JWT_REFRESH_SECRET),
      forgeJwt('HS256', base, secrets.JWT_ACCESS_SECRET),
      forgeJwt('HS256', { ...base, type: 'access' }, secrets.JWT_REFRESH_SECRET),
      forgeJwt('HS256', { ...base, sub: '999999' }, secrets.JWT_REFRESH_SECRET),
      forgeJwt('HS256', { ...base, exp: nowSeconds() - 5 }, secrets.JWT_REFRESH_SECRET),
    ]
    for (const token of bad) {
      const cookie = { [names().refresh]: sign(token, secrets.COOKIE_SECRET) }
      await supertest(app).post('/api/auth/refresh-token').set(withCookies(cookie)).expect(401)
      const me = await supertest(app).get('/api/auth/me').set(withCookies(cookie))
      expect(me.status).toBe(401)
      expect(setCookies(me).has(names().access)).toBe(false)
    }
    // The genuine row is still live: none of the forgeries touched it.
    expect((await RefreshToken.findByPk(row!.id))?.revoked).toBe(false)
  })
})

describe('transparent renewal in the middleware', () => {
  let app: TestApp['app']
  beforeAll(async () => {
    ;({ app } = await t.build())
  })
  const refreshOnly = (cookies: Record<string, string>) => ({ [names().refresh]: cookies[names().refresh]! })

  it('a missing access cookie with a live refresh token yields a new access cookie only', async () => {
    const user = await makeUser()
    const session = await login(app, user.email)
    const res = await supertest(app).get('/api/auth/me').set(withCookies(refreshOnly(session.cookies)))
    expect(res.status).toBe(200)
    const cookies = setCookies(res)
    expect(cookies.has(names().access)).toBe(true)
    expect(cookies.has(names().refresh)).toBe(false)
    const renewed = decodeJwt(unsign(cookies.get(names().access)!.raw)).payload
    expect(renewed).toMatchObject({ sub: String(user.id), type: 'access', role: 'user' })
    // No rotation happened.
    expect(await RefreshToken.count({ where: { userId: user.id } })).toBe(1)
    await supertest(app).get('/api/auth/me').set(withCookies(jar(res))).expect(200)
  })

  it('an expired access token falls back to the refresh token', async () => {
    const user = await makeUser()
    const session = await login(app, user.email)
    const expired = forgeJwt(
      'HS256',
      { ...decodeJwt(session.accessToken).payload, iat: nowSeconds() - 1000, exp: nowSeconds() - 1 },
      t.secrets.JWT_ACCESS_SECRET,
    )
    const res = await supertest(app)
      .get('/api/auth/me')
      .set(withCookies({ ...session.cookies, [names().access]: sign(expired, t.secrets.COOKIE_SECRET) }))
    expect(res.status).toBe(200)
    expect(setCookies(res).has(names().access)).toBe(true)
  })

  it('a revoked, an expired or an unknown jti is 401', async () => {
    for (const spoil of [
      (jti: string) => RefreshToken.update({ revoked: true }, { where: { jti } }),
      (jti: string) => RefreshToken.update({ expiresAt: new Date(Date.now() - 1000) }, { where: { jti } }),
      (jti: string) => RefreshToken.destroy({ where: { jti } }),
    ]) {
      const user = await makeUser()
      const session = await login(app, user.email)
      await spoil(decodeJwt(unsign(session.cookies[names().refresh]!)).payload.jti as string)
      const res = await supertest(app).get('/api/auth/me').set(withCookies(refreshOnly(session.cookies)))
      expect(res.status).toBe(401)
      expect(setCookies(res).has(names().access)).toBe(false)
    }
  })
})

describe('token keys', () => {
  it('are KeyObjects built once (the speed difference is what `npm run bench:jwt` of the generator measures)', () => {
    const secret = 'k'.repeat(64)
    const keys = createTokenKeys({ JWT_ACCESS_SECRET: secret, JWT_REFRESH_SECRET: secret.toUpperCase(), COOKIE_SECRET: `c${secret}` })
    for (const key of [keys.access, keys.refresh, keys.cookie]) {
      expect(key).toBeInstanceOf(KeyObject)
      expect(key.type).toBe('secret')
    }
    const token = signAccessToken(keys, { id: 1, email: 'a@b.c', roleId: 1, role: 'admin' }, 900)
    expect(verifyAccessToken(keys, token).ok).toBe(true)
    expect(jwt.verify(token, secret, { algorithms: ['HS256'] })).toMatchObject({ sub: '1', type: 'access' })
  })
})
