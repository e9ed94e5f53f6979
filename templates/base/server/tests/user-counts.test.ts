import { randomUUID } from 'node:crypto'
import type { Express } from 'express'
import supertest from 'supertest'
import { describe, expect, it } from 'vitest'
import { UserCounts } from '../src/kernel/services/user-counts.js'
import { login, makeUser, redisLabel, redisUrl, useTestApps, withCookies } from './helpers/test-app.js'
import { within } from './helpers/requests.js'
import { instancesListening } from './helpers/redis.js'

const t = useTestApps()

/**
 * The users list keeps its totals between pages (kernel/services/user-counts.ts). Each test counts the
 * users named with a tag of its own, so the totals of one test never move with another's users.
 */
const total = async (app: Express, admin: Record<string, string>, tag: string, query = '') => {
  const response = await supertest(app).get(`/api/users?search=${tag}${query}`).set(withCookies(admin))
  expect(response.status).toBe(200)
  return response.body.data.total as number
}

const tagged = () => {
  const tag = `count${randomUUID().slice(0, 8)}`
  return { tag, make: (options: Parameters<typeof makeUser>[0] = {}) => makeUser({ name: `${tag} user`, ...options }) }
}

async function adminOf(app: Express) {
  return (await login(app, (await makeUser({ role: 'admin' })).email)).cookies
}

describe('users list totals: one instance', () => {
  it('a delete, a role change and a registration through the app show in the very next total, whatever the TTL', async () => {
    const { app } = await t.build({ authCache: { ttlMs: 60_000 } })
    const admin = await adminOf(app)
    const { tag, make } = tagged()
    const [first] = [await make(), await make(), await make()]
    expect(await total(app, admin, tag)).toBe(3)
    expect(await total(app, admin, tag, '&filter[role]=admin')).toBe(0)

    expect((await supertest(app).delete('/api/users').set(withCookies(admin)).send({ ids: [first!.id] })).status).toBe(200)
    expect(await total(app, admin, tag)).toBe(2)

    const [second] = (await supertest(app).get(`/api/users?search=${tag}`).set(withCookies(admin))).body.data.data
    expect((await supertest(app).patch(`/api/users/${second.id}`).set(withCookies(admin)).send({ role: 'admin' })).status).toBe(200)
    expect(await total(app, admin, tag, '&filter[role]=admin')).toBe(1)
    expect(await total(app, admin, tag)).toBe(2)

    const registered = await supertest(app).post('/api/auth/register').send({ name: `${tag} new`, email: `${tag}@example.test`, password: 'a long enough password 1' })
    expect(registered.status).toBeLessThan(300)
    // With verification on the account is made by the queued job, which announces it too.
    await within(5000, async () => (await total(app, admin, tag)) === 3)
  })

  it('a user written by another process, with nobody told, is counted within the TTL, its stated bound', async () => {
    const ttlMs = 400
    const { app } = await t.build({ authCache: { ttlMs } })
    const admin = await adminOf(app)
    const { tag, make } = tagged()
    await make()
    expect(await total(app, admin, tag)).toBe(1)

    await make()
    expect(await total(app, admin, tag)).toBe(1)
    const took = await within(ttlMs + 1000, async () => (await total(app, admin, tag)) === 2)
    expect(took).toBeLessThanOrEqual(ttlMs + 200)
  })
})

describe('UserCounts', () => {
  it('does not keep a total that was being counted when a change landed', async () => {
    const counts = new UserCounts({ ttlMs: 60_000, max: 10 })
    let release!: (total: number) => void
    const running = counts.total('q', () => new Promise<number>((resolve) => (release = resolve)))
    counts.changed()
    release(5)
    expect(await running).toBe(5)
    expect(await counts.total('q', async () => 6)).toBe(6)
    expect(await counts.total('q', async () => 7)).toBe(6)
  })
})

describe.skipIf(!redisUrl)(`users list totals: two instances on one Redis${redisLabel}`, () => {
  it('a delete on one instance shows in the other instance\'s total within a second', async () => {
    // A TTL far longer than the test: only the pub/sub message can explain a prompt change.
    const options = { redis: true, keyPrefix: `counts-${randomUUID().slice(0, 8)}:`, authCache: { ttlMs: 60_000 } }
    const a = await t.build(options)
    const b = await t.build(options)
    await instancesListening(options.keyPrefix, 2)
    const admin = await adminOf(a.app)
    const { tag, make } = tagged()
    const user = await make()
    await make()
    expect(await total(b.app, admin, tag)).toBe(2)

    expect((await supertest(a.app).delete('/api/users').set(withCookies(admin)).send({ ids: [user.id] })).status).toBe(200)
    await within(1000, async () => (await total(b.app, admin, tag)) === 1)
  })
})
