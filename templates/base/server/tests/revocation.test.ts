import { randomUUID } from 'node:crypto'
import type { Express } from 'express'
import supertest from 'supertest'
import { describe, expect, it } from 'vitest'
import { issueResetLink } from '../src/kernel/services/password-reset.js'
import { unsign } from './helpers/cookies.js'
import { accessOnly, account, me, within } from './helpers/requests.js'
import { instancesListening } from './helpers/redis.js'
import { login, makeUser, names, PASSWORD, redisLabel, redisUrl, useTestApps, withCookies, type TestApp } from './helpers/test-app.js'

const t = useTestApps()

/** What revokes sessions: each action, given the app, the victim's user id and one session of it. */
type Action = (app: Express, userId: number, email: string, cookies: Record<string, string>, admin: Record<string, string>) => Promise<unknown>

const actions: Array<[string, Action]> = [
  ['logout', (app, _id, _email, cookies) => supertest(app).post('/api/auth/logout').set(withCookies(cookies)).expect(204)],
  ['logout-all', (app, _id, _email, cookies) => supertest(app).post('/api/auth/logout-all').set(withCookies(cookies)).expect(204)],
  [
    'reset-password',
    async (app, id, email) => {
      const token = await issueResetLink({ id, email })
      await supertest(app).post('/api/auth/reset-password').send({ email, token, password: 'reset secret' }).expect(200)
    },
  ],
  ['DELETE /api/users/:id/sessions', (app, id, _email, _cookies, admin) => supertest(app).delete(`/api/users/${id}/sessions`).set(withCookies(admin)).expect(204)],
  ['user deletion', (app, id, _email, _cookies, admin) => supertest(app).delete('/api/users').set(withCookies(admin)).send({ ids: [id] }).expect(200)],
  [
    'refresh-token reuse',
    async (app, _id, _email, cookies) => {
      const rotate = (token: string) => supertest(app).post('/api/auth/refresh-token').send({ refresh_token: token })
      const first = unsign(cookies[names().refresh]!)
      const second = (await rotate(first).expect(200)).body.refresh_token as string
      await rotate(second).expect(200)
      // Two generations old: no longer the parent the grace window forgives, so theft is assumed.
      await rotate(first).expect(401)
    },
  ],
]

describe('instant revocation on the instance that revoked', () => {
  it.each(actions)('%s: the revoked session\'s access token is refused from the next request', async (name, action) => {
    const { app } = await t.build()
    const admin = (await login(app, (await makeUser({ role: 'admin' })).email)).cookies
    const user = await makeUser()
    const session = (await login(app, user.email)).cookies
    const access = accessOnly(session)
    expect((await me(app, access)).status).toBe(200)
    await action(app, user.id, user.email, session, admin)
    expect((await me(app, access)).status, name).toBe(401)
  })

  it('logout ends only its own session: the same user elsewhere stays signed in', async () => {
    const { app } = await t.build()
    const user = await makeUser()
    const here = (await login(app, user.email)).cookies
    const elsewhere = (await login(app, user.email)).cookies
    await supertest(app).post('/api/auth/logout').set(withCookies(here)).expect(204)
    expect((await me(app, accessOnly(here))).status).toBe(401)
    expect((await me(app, elsewhere)).status).toBe(200)
  })
})

describe('revocation on another instance', () => {
  it('without Redis, within the cache TTL (the stated bound; 5 s by default, 300 ms here)', async () => {
    const a = await t.build({ authCache: { ttlMs: 300 } })
    const b = await t.build({ authCache: { ttlMs: 300 } })
    const user = await makeUser()
    const session = (await login(a.app, user.email)).cookies
    expect((await me(b.app, accessOnly(session))).status).toBe(200)
    await account(a.app, (await login(a.app, user.email)).cookies).revokeOthers({ password: PASSWORD }).expect(204)
    const took = await within(1000, async () => (await me(b.app, accessOnly(session))).status === 401)
    expect(took).toBeLessThanOrEqual(1000)
  })

  it.skipIf(!redisUrl)(`with Redis, within a second though the TTL is a minute${redisLabel}`, async () => {
    const keyPrefix = `revoke-${randomUUID().slice(0, 8)}:`
    const options = { redis: true, keyPrefix, authCache: { ttlMs: 60_000 } }
    const a: TestApp = await t.build(options)
    const b: TestApp = await t.build(options)
    await instancesListening(keyPrefix, 2)
    const user = await makeUser()
    const here = (await login(a.app, user.email)).cookies
    const elsewhere = (await login(a.app, user.email)).cookies
    expect((await me(b.app, accessOnly(elsewhere))).status).toBe(200)
    await account(a.app, here).changePassword({ current_password: PASSWORD, password: 'changed secret' }).expect(200)
    await within(1000, async () => (await me(b.app, accessOnly(elsewhere))).status === 401)
    expect((await me(b.app, accessOnly(here))).status).toBe(200)
  })
})
