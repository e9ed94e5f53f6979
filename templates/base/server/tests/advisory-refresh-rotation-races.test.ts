import supertest from 'supertest'
import { beforeAll, describe, expect, it } from 'vitest'
import { RefreshToken } from '../src/kernel/models/index.js'
import { jar, unsign } from './helpers/cookies.js'
import { decodeJwt } from './helpers/jwt.js'
import { me } from './helpers/requests.js'
import { login, makeUser, names, useTestApps, withCookies, type TestApp } from './helpers/test-app.js'

/**
 * The class of refresh-token rotation races (Keycloak CVE-2026-1035, CVE-2026-9802): parallel
 * refreshes, a replay after the server restarted (nothing remembered in memory), and a refresh
 * racing a revocation must never leave a live token behind an ended sign-in.
 */
const t = useTestApps()
const jtiOf = (cookies: Record<string, string>) => decodeJwt(unsign(cookies[names().refresh]!)).payload.jti as string

let app: TestApp['app']
beforeAll(async () => {
  ;({ app } = await t.build())
})
const refresh = (on: TestApp['app'], cookies: Record<string, string>) => supertest(on).post('/api/auth/refresh-token').set(withCookies(cookies))

describe('refresh-token rotation races', () => {
  it('ten parallel refreshes of one token leave exactly one live token in its family', async () => {
    const session = await login(app, (await makeUser()).email)
    const answers = await Promise.all(Array.from({ length: 10 }, () => refresh(app, session.cookies)))
    for (const res of answers) expect(res.status).toBe(200)
    const family = (await RefreshToken.findOne({ where: { jti: jtiOf(session.cookies) } }))!.family
    expect(await RefreshToken.count({ where: { family, revoked: false } })).toBe(1)
  })

  it('a replay after a restart (a fresh app, empty caches) past the grace window is theft: the family ends', async () => {
    const session = await login(app, (await makeUser()).email)
    const rotated = jar(await refresh(app, session.cookies).expect(200), session.cookies)
    await RefreshToken.update({ revokedAt: new Date(Date.now() - 31_000) }, { where: { jti: jtiOf(session.cookies) } })
    const { app: restarted } = await t.build()
    await refresh(restarted, session.cookies).expect(401)
    await refresh(restarted, rotated).expect(401)
    expect((await me(restarted, rotated)).status).toBe(401)
  })

  it('a refresh racing logout-all: whatever it returned is dead once both have answered', async () => {
    for (let round = 0; round < 3; round++) {
      const session = await login(app, (await makeUser()).email)
      const [refreshed] = await Promise.all([refresh(app, session.cookies), supertest(app).post('/api/auth/logout-all').set(withCookies(session.cookies))])
      const cookies = jar(refreshed, session.cookies)
      expect((await me(app, cookies)).status, `round ${round}`).toBe(401)
      await refresh(app, cookies).expect(401)
    }
  })
})
