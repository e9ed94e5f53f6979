import type { Express } from 'express'
import supertest from 'supertest'
import { beforeAll, describe, expect, it } from 'vitest'
import type { AppContext } from '../src/kernel/context.js'
import { SecurityEvent } from '../src/kernel/models/index.js'
import { pruneSecurityEvents } from '../src/kernel/security/activity.js'
import { within } from './helpers/requests.js'
import { login, makeUser, useTestApps, withCookies } from './helpers/test-app.js'

const t = useTestApps()

let app: Express
let ctx: AppContext
beforeAll(async () => {
  ;({ app, ctx } = await t.build())
})

const activity = (cookies: Record<string, string>, query = '') => supertest(app).get(`/api/account/activity${query}`).set(withCookies(cookies))

describe('GET /api/account/activity', () => {
  it('lists the account’s events newest first, in the paginated shape, marking those of the asking session', async () => {
    const user = await makeUser()
    const other = await login(app, user.email)
    await supertest(app).post('/api/auth/login').send({ email: user.email, password: 'wrong password' }).expect(422)
    const here = await login(app, user.email)
    await supertest(app).post('/api/auth/logout').set(withCookies(other.cookies)).expect(204)

    const res = await activity(here.cookies)
    expect(res.status).toBe(200)
    expect(res.headers['cache-control']).toBe('no-store')
    const page = res.body.data
    expect(page).toMatchObject({ current_page: 1, last_page: 1, per_page: 10, total: 4, path: '/api/account/activity', from: 1, to: 4 })
    expect(page.data.map((event: { type: string }) => event.type)).toEqual(['sign_out', 'sign_in', 'sign_in_failed', 'sign_in'])
    for (const event of page.data) expect(Object.keys(event).sort()).toEqual(['createdAt', 'current', 'device', 'id', 'impersonatorId', 'ip', 'type'])
    expect(page.data.map((event: { current: boolean }) => event.current)).toEqual([false, true, false, false])
    expect(page.data[0].ip).toMatch(/127\.0\.0\.1|::1/)
    expect(new Date(page.data[0].createdAt).toISOString()).toBe(page.data[0].createdAt)
  })

  it('pages with page and size; a bad size is 422; without a session it is 401', async () => {
    const user = await makeUser()
    for (let i = 0; i < 4; i++) await login(app, user.email)
    const { cookies } = await login(app, user.email)
    const second = (await activity(cookies, '?page=2&size=2').expect(200)).body.data
    expect(second).toMatchObject({ current_page: 2, last_page: 3, per_page: 2, total: 5, from: 3, to: 4 })
    expect((await activity(cookies, '?size=101')).status).toBe(422)
    expect((await supertest(app).get('/api/account/activity')).status).toBe(401)
  })

  it('shows nobody else’s events', async () => {
    const [user, other] = [await makeUser(), await makeUser()]
    await login(app, other.email)
    const { cookies } = await login(app, user.email)
    const events = (await activity(cookies)).body.data.data as Array<{ id: number }>
    const ids = (await SecurityEvent.findAll({ where: { userId: other.id } })).map((row) => row.id)
    expect(events.some((event) => ids.includes(event.id))).toBe(false)
  })
})

describe('GET /api/users/:id/activity (admin)', () => {
  it("an admin's change to a user is the user's event without the admin's address, device or session", async () => {
    const proxied = await t.build({ env: { TRUST_PROXY: '1' } })
    const user = await makeUser()
    const admin = await login(proxied.app, (await makeUser({ role: 'admin' })).email)
    const firefox = 'Mozilla/5.0 (X11; Linux x86_64; rv:131.0) Gecko/20100101 Firefox/131.0'
    const changed = await supertest(proxied.app).patch(`/api/users/${user.id}`).set(withCookies(admin.cookies)).set('X-Forwarded-For', '198.51.100.9').set('User-Agent', firefox).send({ role: 'admin' })
    expect(changed.status).toBe(200)
    const row = (await SecurityEvent.findOne({ where: { userId: user.id, type: 'role_changed' } }))!
    expect([row.ip, row.userAgent, row.network, row.sessionId]).toEqual([null, null, null, null])
    const seen = await supertest(proxied.app).get('/api/account/activity').set(withCookies((await login(proxied.app, user.email)).cookies))
    expect(seen.body.data.data.find((event: { type: string }) => event.type === 'role_changed')).toMatchObject({ ip: null, device: 'Unknown device', current: false })
  })

  it('lists a user’s events for an admin, with the path of that user; unknown id 404; a non-admin 403', async () => {
    const admin = (await login(app, (await makeUser({ role: 'admin' })).email)).cookies
    const user = await makeUser()
    const own = (await login(app, user.email)).cookies
    const res = await supertest(app).get(`/api/users/${user.id}/activity`).set(withCookies(admin))
    expect(res.status).toBe(200)
    expect(res.body.data).toMatchObject({ path: `/api/users/${user.id}/activity`, total: 1 })
    expect(res.body.data.data[0]).toMatchObject({ type: 'sign_in', current: false })
    expect((await supertest(app).get('/api/users/999999999/activity').set(withCookies(admin))).status).toBe(404)
    expect((await supertest(app).get('/api/users/abc/activity').set(withCookies(admin))).status).toBe(404)
    expect((await supertest(app).get(`/api/users/${user.id}/activity`).set(withCookies(own))).status).toBe(403)
  })
})

describe('keeping events 90 days', () => {
  it('the job security:prune-events deletes what is older, and only that', async () => {
    const user = await makeUser()
    const day = 24 * 3600 * 1000
    const old = await SecurityEvent.create({ userId: user.id, type: 'sign_in', sessionId: null, ip: null, userAgent: null, device: null, network: null, meta: null, createdAt: new Date(Date.now() - 91 * day) })
    const recent = await SecurityEvent.create({ userId: user.id, type: 'sign_in', sessionId: null, ip: null, userAgent: null, device: null, network: null, meta: null, createdAt: new Date(Date.now() - 89 * day) })
    await ctx.queue.dispatch('security:prune-events', {})
    await within(10_000, async () => (await SecurityEvent.findByPk(old.id)) === null)
    expect(await SecurityEvent.findByPk(recent.id)).not.toBeNull()
    expect(await pruneSecurityEvents()).toBe(0)
  })
})
