import { randomUUID } from 'node:crypto'
import type { Express } from 'express'
import supertest from 'supertest'
import { describe, expect, it } from 'vitest'
import { Role, User } from '../src/kernel/models/index.js'
import { login, makeUser, redisLabel, redisUrl, useTestApps, withCookies } from './helpers/test-app.js'
import { me, refreshOnly, within } from './helpers/requests.js'
import { instancesListening } from './helpers/redis.js'

const t = useTestApps()

const listUsers = (app: Express, cookies: Record<string, string>) => supertest(app).get('/api/users').set(withCookies(cookies))

async function demoteInDatabase(user: User) {
  // As another process would: straight to the table, with nobody told.
  const role = await Role.findOne({ where: { name: 'user' } })
  await User.update({ roleId: role!.id }, { where: { id: user.id } })
}

describe('authentication cache: one instance', () => {
  it('a deleted user is refused from the very next request', async () => {
    const { app } = await t.build()
    const admin = (await login(app, (await makeUser({ role: 'admin' })).email)).cookies
    const user = await makeUser()
    const session = (await login(app, user.email)).cookies
    expect((await me(app, session)).status).toBe(200)

    expect((await supertest(app).delete('/api/users').set(withCookies(admin)).send({ ids: [user.id] })).status).toBe(200)
    expect((await me(app, session)).status).toBe(401)
  })

  it('the role comes from the database, not the token: a change nobody announced applies within the TTL', async () => {
    const ttlMs = 400
    const { app } = await t.build({ authCache: { ttlMs } })
    const user = await makeUser({ role: 'admin' })
    const session = (await login(app, user.email)).cookies
    expect((await listUsers(app, session)).status).toBe(200)

    await demoteInDatabase(user)
    const took = await within(ttlMs + 1000, async () => (await listUsers(app, session)).status === 403)
    expect(took).toBeLessThanOrEqual(ttlMs + 200)
  })

  it('a change the app announces applies at once, whatever the TTL', async () => {
    const { app, ctx } = await t.build({ authCache: { ttlMs: 60_000 } })
    const user = await makeUser({ role: 'admin' })
    const session = (await login(app, user.email)).cookies
    expect((await listUsers(app, session)).status).toBe(200)

    await demoteInDatabase(user)
    ctx.authCache.userChanged(user.id)
    expect((await listUsers(app, session)).status).toBe(403)
    expect((await me(app, session)).body.user.role).toBe('user')
  })
})

describe("authentication cache: a layer's credentials", () => {
  it('asking for a kind again hands back the same cache, so a drop reaches every caller', async () => {
    const { ctx } = await t.build()
    const rows = new Map([['a', { userId: 1, name: 'first' }]])
    const first = ctx.authCache.credentials('test-kind', async (id) => rows.get(id))
    const again = ctx.authCache.credentials('test-kind', async () => ({ userId: 1, name: 'never loaded' }))
    expect(again).toBe(first)
    expect((await again.get('a'))?.name).toBe('first')
    rows.set('a', { userId: 1, name: 'changed' })
    first.changed('a')
    expect(again.cached('a')).toBeUndefined()
    expect((await again.get('a'))?.name).toBe('changed')
  })
})

describe('authentication cache: loads cut short by invalidations', () => {
  /** Invalidates the user's entries on every turn of the event loop until the returned stop is called. */
  function invalidateContinually(ctx: { authCache: { userChanged(id: number): void; sessionsChanged(id: number): void } }, userId: number) {
    let on = true
    const done = (async () => {
      while (on) {
        ctx.authCache.userChanged(userId)
        ctx.authCache.sessionsChanged(userId)
        await new Promise((resolve) => setImmediate(resolve))
      }
    })()
    return async () => {
      on = false
      await done
    }
  }

  it('every request that joined an aborted load still gets the row', async () => {
    const { ctx } = await t.build()
    const user = await makeUser()
    const loads = Array.from({ length: 5 }, () => ctx.authCache.user(user.id))
    ctx.authCache.userChanged(user.id)
    const results = await Promise.allSettled(loads)
    expect(results.map((result) => result.status)).toEqual(Array(5).fill('fulfilled'))
    for (const result of results) expect(result.status === 'fulfilled' && result.value?.identity.id).toBe(user.id)
  })

  it('a user whose entries are invalidated without pause is still served, never a 500', async () => {
    const { app, ctx } = await t.build()
    const user = await makeUser()
    const session = (await login(app, user.email)).cookies
    const stop = invalidateContinually(ctx, user.id)
    try {
      const answers = await Promise.all(Array.from({ length: 40 }, (_, i) => me(app, i % 2 ? refreshOnly(session) : session)))
      expect(answers.map((answer) => answer.status)).toEqual(Array(40).fill(200))
    } finally {
      await stop()
    }
  })
})

describe('authentication cache: two instances without Redis', () => {
  it('the other instance refuses a deleted user within the TTL, its stated bound', async () => {
    const ttlMs = 500
    const a = await t.build({ authCache: { ttlMs } })
    const b = await t.build({ authCache: { ttlMs } })
    const admin = (await login(a.app, (await makeUser({ role: 'admin' })).email)).cookies
    const user = await makeUser()
    const session = (await login(a.app, user.email)).cookies
    expect((await me(b.app, session)).status).toBe(200)

    await supertest(a.app).delete('/api/users').set(withCookies(admin)).send({ ids: [user.id] })
    const took = await within(ttlMs + 1000, async () => (await me(b.app, session)).status === 401)
    expect(took).toBeLessThanOrEqual(ttlMs + 200)
  })
})

describe.skipIf(!redisUrl)(`authentication cache: two instances on one Redis${redisLabel}`, () => {
  // A TTL far longer than the test: only the pub/sub message can explain a prompt change.
  const pair = async () => {
    const keyPrefix = `cache-${randomUUID().slice(0, 8)}:`
    const options = { redis: true, keyPrefix, authCache: { ttlMs: 60_000 } }
    const a = await t.build(options)
    const b = await t.build(options)
    await instancesListening(keyPrefix, 2)
    return [a, b] as const
  }

  it('a user deleted on one instance is refused by the other within a second', async () => {
    const [a, b] = await pair()
    const admin = (await login(a.app, (await makeUser({ role: 'admin' })).email)).cookies
    const user = await makeUser()
    const session = (await login(a.app, user.email)).cookies
    expect((await me(b.app, session)).status).toBe(200)

    await supertest(a.app).delete('/api/users').set(withCookies(admin)).send({ ids: [user.id] })
    await within(1000, async () => (await me(b.app, session)).status === 401)
  })

  it('a role change announced on one instance applies on the other within a second', async () => {
    const [a, b] = await pair()
    const user = await makeUser({ role: 'admin' })
    const session = (await login(a.app, user.email)).cookies
    expect((await listUsers(b.app, session)).status).toBe(200)

    await demoteInDatabase(user)
    a.ctx.authCache.userChanged(user.id)
    await within(1000, async () => (await listUsers(b.app, session)).status === 403)
  })

  it('after logout on one instance, the other no longer renews access from that refresh token', async () => {
    const [a, b] = await pair()
    const user = await makeUser()
    const session = (await login(a.app, user.email)).cookies
    expect((await me(b.app, refreshOnly(session))).status).toBe(200)

    expect((await supertest(a.app).post('/api/auth/logout').set(withCookies(session))).status).toBe(204)
    await within(1000, async () => (await me(b.app, refreshOnly(session))).status === 401)
  })
})
