import supertest from 'supertest'
import { beforeAll, describe, expect, it } from 'vitest'
import { RefreshToken } from '../src/kernel/models/index.js'
import { jar, setCookies, unsign } from './helpers/cookies.js'
import { decodeJwt } from './helpers/jwt.js'
import { authConfig, login, makeUser, names, PASSWORD, useTestApps, withCookies, type TestApp } from './helpers/test-app.js'

const t = useTestApps()

const jtiOf = (cookies: Record<string, string>) => decodeJwt(unsign(cookies[names().refresh]!)).payload.jti as string
const rowOf = (jti: string) => RefreshToken.findOne({ where: { jti } })

describe('POST /refresh-token (rotation)', () => {
  let app: TestApp['app']
  beforeAll(async () => {
    ;({ app } = await t.build())
  })
  const refresh = (cookies: Record<string, string>) => supertest(app).post('/api/auth/refresh-token').set(withCookies(cookies))

  it('revokes the presented token, stores a successor in the same family and sets both cookies', async () => {
    const user = await makeUser()
    const session = await login(app, user.email)
    const oldJti = jtiOf(session.cookies)
    const res = await refresh(session.cookies)
    expect(res.status).toBe(200)
    expect(Object.keys(res.body).sort()).toEqual(['access_token', 'user'])
    expect(res.body.user.id).toBe(user.id)
    const cookies = jar(res, session.cookies)
    const newJti = jtiOf(cookies)
    expect(newJti).not.toBe(oldJti)
    expect(setCookies(res).has(names().access)).toBe(true)

    const [oldRow, newRow] = [await rowOf(oldJti), await rowOf(newJti)]
    expect(oldRow).toMatchObject({ revoked: true, replacedBy: newJti })
    expect(newRow).toMatchObject({ revoked: false, family: oldRow!.family, userId: user.id })
    await supertest(app).get('/api/auth/me').set(withCookies(cookies)).expect(200)
  })

  it('never extends the session: the successor keeps the family expiry', async () => {
    const user = await makeUser()
    const session = await login(app, user.email, PASSWORD, true)
    const before = decodeJwt(unsign(session.cookies[names().refresh]!)).payload
    // A second later the successor still carries the login's iat and the family's exp, so
    // exp - iat stays the configured life and the session ends when the login's would have.
    await new Promise((resolve) => setTimeout(resolve, 1100))
    const res = await refresh(session.cookies)
    const after = decodeJwt(unsign(jar(res)[names().refresh]!)).payload
    expect(after.jti).not.toBe(before.jti)
    expect(after.exp).toBe(before.exp)
    expect(after.iat).toBe(before.iat)
    expect((after.exp as number) - (after.iat as number)).toBe(authConfig.refreshRememberExpirySeconds)
    expect(setCookies(res).get(names().refresh)!.maxAge).toBe(authConfig.refreshRememberExpirySeconds)
    const rows = await RefreshToken.findAll({ where: { userId: user.id } })
    expect(new Set(rows.map((r) => r.expiresAt.getTime())).size).toBe(1)
  })

  it('five parallel refreshes with one cookie all succeed, leave one live token and clear no cookie', async () => {
    const user = await makeUser()
    const session = await login(app, user.email)
    const responses = await Promise.all(Array.from({ length: 5 }, () => refresh(session.cookies)))
    for (const res of responses) {
      expect(res.status).toBe(200)
      for (const cookie of setCookies(res).values()) expect(cookie.cleared).toBe(false)
    }
    const family = (await rowOf(jtiOf(session.cookies)))!.family
    const live = await RefreshToken.findAll({ where: { family, revoked: false } })
    expect(live).toHaveLength(1)
    // Every response carries that one survivor.
    for (const res of responses) expect(jtiOf(jar(res))).toBe(live[0]!.jti)
  })

  it('hands the current successor to the immediate parent within the grace window', async () => {
    const user = await makeUser()
    const session = await login(app, user.email)
    const first = await refresh(session.cookies)
    const again = await refresh(session.cookies)
    expect(again.status).toBe(200)
    expect(jtiOf(jar(again))).toBe(jtiOf(jar(first)))
  })

  it('treats a revoked token presented after the grace window as theft: 401 and the whole family revoked', async () => {
    const user = await makeUser()
    const session = await login(app, user.email)
    const rotated = jar(await refresh(session.cookies), session.cookies)
    await RefreshToken.update({ revokedAt: new Date(Date.now() - 31_000) }, { where: { jti: jtiOf(session.cookies) } })

    const replay = await refresh(session.cookies)
    expect(replay.status).toBe(401)
    expect(replay.body).toEqual({ message: 'Unauthenticated.' })
    expect(setCookies(replay).get(names().refresh)?.cleared).toBe(true)
    const family = (await rowOf(jtiOf(session.cookies)))!.family
    expect(await RefreshToken.count({ where: { family, revoked: false } })).toBe(0)
    // The legitimate holder of the successor is signed out too.
    await refresh(rotated).expect(401)
  })

  it('revokes the family when a grandparent is replayed, even within the window', async () => {
    const user = await makeUser()
    const session = await login(app, user.email)
    const second = jar(await refresh(session.cookies), session.cookies)
    const third = jar(await refresh(second), second)
    await refresh(session.cookies).expect(401)
    await refresh(third).expect(401)
  })

  it('refuses a token whose family has expired', async () => {
    const user = await makeUser()
    const session = await login(app, user.email)
    await RefreshToken.update({ expiresAt: new Date(Date.now() - 1000) }, { where: { jti: jtiOf(session.cookies) } })
    await refresh(session.cookies).expect(401)
  })

  it('refuses an unknown jti, a missing cookie and a logged-out token', async () => {
    await supertest(app).post('/api/auth/refresh-token').expect(401)
    const user = await makeUser()
    const session = await login(app, user.email)
    await RefreshToken.destroy({ where: { jti: jtiOf(session.cookies) } })
    await refresh(session.cookies).expect(401)
  })

  it('accepts the token in the body and returns its successor as refresh_token', async () => {
    const user = await makeUser()
    const session = await login(app, user.email)
    const token = unsign(session.cookies[names().refresh]!)
    const res = await supertest(app).post('/api/auth/refresh-token').send({ refresh_token: token })
    expect(res.status).toBe(200)
    expect(typeof res.body.refresh_token).toBe('string')
    const successor = decodeJwt(res.body.refresh_token).payload.jti as string
    expect(await rowOf(successor)).toMatchObject({ revoked: false })
    expect((await rowOf(decodeJwt(token).payload.jti as string))?.revoked).toBe(true)
  })

  it('refuses an access token presented as a refresh token', async () => {
    const user = await makeUser()
    const session = await login(app, user.email)
    await supertest(app).post('/api/auth/refresh-token').send({ refresh_token: session.accessToken }).expect(401)
  })
})
