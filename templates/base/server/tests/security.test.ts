import { KeyObject } from 'node:crypto'
import jwt from 'jsonwebtoken'
import supertest from 'supertest'
import { beforeAll, describe, expect, it } from 'vitest'
import { RefreshToken, Role, User } from '../src/kernel/models/index.js'
import { createTokenKeys } from '../src/kernel/auth/token-keys.js'
import { signAccessToken, verifyAccessToken } from '../src/kernel/auth/tokens.js'
import { jar, setCookies, sign, unsign } from './helpers/cookies.js'
import { decodeJwt, forgeJwt, nowSeconds, tamperPayload } from './helpers/jwt.js'
import { authConfig, login, makeUser, names, useTestApps, withCookies, type TestApp } from './helpers/test-app.js'

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
    const sid = decodeJwt(session.accessToken).payload.sid
    return { sub: String(user.id), email: user.email, roleId: 1, role: 'admin', type: 'access', sid, iat, exp: iat + 600 }
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

  it('trusts no access token without a session (`sid`): alone it is 401, next to a live refresh cookie it is renewed', async () => {
    const { sid: _sid, ...withoutSession } = { ...claims(), role: 'user', roleId: user.roleId }
    const token = forgeJwt('HS256', withoutSession, secrets.JWT_ACCESS_SECRET)
    await supertest(app).get('/api/auth/me').set('Authorization', `Bearer ${token}`).expect(401)
    await supertest(app)
      .get('/api/auth/me')
      .set(withCookies({ [names().access]: sign(token, secrets.COOKIE_SECRET) }))
      .expect(401)
    const renewed = await meWithAccess(token).expect(200)
    expect(decodeJwt(unsign(setCookies(renewed).get(names().access)!.raw)).payload.sid).toBe(claims().sid)
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
  it('are KeyObjects built once (made once, they verify several times faster than a string secret)', () => {
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

describe('authorisation rests on the database, not on token claims', () => {
  it('a deleted admin\'s old cookie can neither list users nor delete the admin who removed it', async () => {
    const { app } = await t.build()
    const [doomed, remover] = [await makeUser({ role: 'admin' }), await makeUser({ role: 'admin' })]
    const doomedSession = await login(app, doomed.email)
    const removerSession = await login(app, remover.email)
    await supertest(app).get('/api/users').set(withCookies(doomedSession.cookies)).expect(200)

    await supertest(app).delete('/api/users').set(withCookies(removerSession.cookies)).send({ ids: [doomed.id] }).expect(200)

    await supertest(app).get('/api/users').set(withCookies(doomedSession.cookies)).expect(401)
    await supertest(app).delete('/api/users').set(withCookies(doomedSession.cookies)).send({ ids: [remover.id] }).expect(401)
    // Also with the token as a Bearer header, whose claims still say admin.
    await supertest(app).get('/api/users').set('Authorization', `Bearer ${doomedSession.accessToken}`).expect(401)
    expect(await User.findByPk(remover.id)).not.toBeNull()
  })

  it('a demoted admin loses admin routes on its next request, though its token still says admin', async () => {
    const { app, ctx } = await t.build()
    const admin = await makeUser({ role: 'admin' })
    const session = await login(app, admin.email)
    expect(decodeJwt(session.accessToken).payload.role).toBe('admin')
    await supertest(app).get('/api/users').set(withCookies(session.cookies)).expect(200)

    const userRole = await Role.findOne({ where: { name: 'user' } })
    await User.update({ roleId: userRole!.id }, { where: { id: admin.id } })
    ctx.authCache.userChanged(admin.id)

    await supertest(app).get('/api/users').set(withCookies(session.cookies)).expect(403)
    const me = await supertest(app).get('/api/auth/me').set(withCookies(session.cookies)).expect(200)
    expect(me.body.user.role).toBe('user')
  })
})

describe('Cache-Control: no-store on every API answer (ASVS 14.3.2)', () => {
  it('login, register, refresh, /me, the users list, the guest session, errors and health', async () => {
    const { app } = await t.build()
    const admin = await makeUser({ role: 'admin' })
    const session = await login(app, admin.email)
    const answers = [
      session.res,
      await supertest(app).post('/api/auth/register').send({ name: 'N', email: `${admin.id}-${admin.email}`, password: 'password1' }),
      await supertest(app).post('/api/auth/refresh-token').set(withCookies(session.cookies)),
      await supertest(app).get('/api/auth/me').set(withCookies(session.cookies)),
      await supertest(app).get('/api/users?page=1&size=10').set(withCookies(session.cookies)),
      await supertest(app).get('/api/session'),
      await supertest(app).get('/api/auth/me'),
      await supertest(app).get('/api/nowhere'),
      await supertest(app).get('/api/health'),
    ]
    for (const [i, res] of answers.entries()) {
      expect(res.status, `answer ${i}`).toBeLessThan(500)
      expect(res.headers['cache-control'], `answer ${i}`).toBe('no-store')
      expect(res.headers.etag, `answer ${i}`).toBeUndefined()
    }
  })
})

describe('COOKIE_HOST_PREFIX=true (__Host- cookie names in production)', () => {
  it('names every cookie __Host-…, Secure, Path=/ and without Domain, and ignores a tossed look-alike', async () => {
    const { app, ctx } = await t.build({ env: { NODE_ENV: 'production', COOKIE_HOST_PREFIX: 'true' } })
    const cookie = names(ctx)
    expect(cookie).toMatchObject({
      access: `__Host-${authConfig.name}_access`,
      refresh: `__Host-${authConfig.name}_refresh`,
      session: `__Host-${authConfig.name}_session`,
    })
    for (const name of Object.values(cookie)) expect(name).toMatch(new RegExp(`^__Host-${authConfig.name}_`))
    const victim = await makeUser()
    const session = await login(app, victim.email)
    const set = setCookies(session.res)
    for (const name of [cookie.access, cookie.refresh]) {
      expect(set.get(name)?.attributes).toMatchObject({ secure: true, path: '/' })
      expect(set.get(name)?.attributes.domain).toBeUndefined()
    }

    // A sibling subdomain can set `app_access` for the parent domain, and it would be sent first;
    // only the __Host- cookie counts, whatever comes before it.
    const attacker = await login(app, (await makeUser()).email)
    const tossed = { [`${authConfig.name}_access`]: attacker.cookies[cookie.access]!, [`${authConfig.name}_refresh`]: attacker.cookies[cookie.refresh]! }
    const me = await supertest(app).get('/api/auth/me').set(withCookies({ ...tossed, ...session.cookies }))
    expect(me.status).toBe(200)
    expect(me.body.user.email).toBe(victim.email)
    await supertest(app).get('/api/auth/me').set(withCookies(tossed)).expect(401)
  })

  it('keeps the plain names outside production and by default', async () => {
    const dev = await t.build({ env: { COOKIE_HOST_PREFIX: 'true' } })
    const prod = await t.build({ env: { NODE_ENV: 'production' } })
    for (const { app } of [dev, prod]) {
      const { res } = await login(app, (await makeUser()).email)
      expect([...setCookies(res).keys()].sort()).toEqual([names().access, names().refresh])
    }
  })
})

describe('ids are validated one way, as numbers or strings', () => {
  it('refuses ids beyond a 32-bit INTEGER in either form (422 errors[ids.0]) and takes the largest one in both', async () => {
    const { app } = await t.build()
    const admin = await login(app, (await makeUser({ role: 'admin' })).email)
    for (const id of [4_294_967_438, '4294967438', 2_147_483_648, '2147483648', '00000000000000000001x']) {
      const res = await supertest(app).delete('/api/users').set(withCookies(admin.cookies)).send({ ids: [id] })
      expect(res.status, String(id)).toBe(422)
      expect(Object.keys(res.body.errors), String(id)).toEqual(['ids.0'])
    }
    for (const id of [2_147_483_647, '2147483647']) {
      const res = await supertest(app).delete('/api/users').set(withCookies(admin.cookies)).send({ ids: [id] })
      expect(res.status).toBe(200)
      expect(res.body).toEqual({ deleted: 0 })
    }
  })
})
