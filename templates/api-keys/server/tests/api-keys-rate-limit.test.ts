import { randomUUID } from 'node:crypto'
import { describe, expect, inject, it } from 'vitest'
import { EnvError, parseEnv } from '../src/kernel/config/env.js'
import { envOf } from '../src/kernel/own-settings.js'
import { features } from '../src/features/index.js'
import { config } from '../src/features/api-keys/config.js'
import { meWith, withApiKey } from './helpers/api-keys.js'
import { me } from './helpers/requests.js'
import { testSecrets } from './helpers/processes.js'
import { makeUser, redisLabel, redisUrl, useTestApps } from './helpers/test-app.js'

const t = useTestApps()

const minute = 60_000

describe('each key has its own rate limit (600 a minute by default, RATE_LIMIT_API_KEY)', () => {
  it('past the limit a key is 429 with Retry-After, as elsewhere; other keys, and the session, go on', async () => {
    const { app } = await t.build({ rateLimits: { apiKey: { limit: 3, windowMs: minute } } })
    const user = await makeUser()
    const { key, cookies } = await withApiKey(app, user.email)
    const other = (await withApiKey(app, user.email, { name: 'other' })).key
    for (let i = 0; i < 3; i++) expect((await meWith(app, key)).status).toBe(200)
    const limited = await meWith(app, key)
    expect(limited.status).toBe(429)
    expect(limited.body).toEqual({ message: expect.stringMatching(/^Too many attempts\. Please try again in \d+ seconds\.$/) })
    const retryAfter = Number(limited.headers['retry-after'])
    expect(retryAfter).toBeGreaterThan(0)
    expect(retryAfter).toBeLessThanOrEqual(60)
    expect((await meWith(app, other)).status).toBe(200)
    expect((await me(app, cookies)).status).toBe(200)
  })

  it("a stranger with the key's prefix and a wrong secret uses up none of its allowance", async () => {
    const { app } = await t.build({ rateLimits: { apiKey: { limit: 2, windowMs: minute } } })
    const user = await makeUser()
    const { key } = await withApiKey(app, user.email)
    const wrong = `${key.slice(0, -1)}${key.endsWith('A') ? 'B' : 'A'}`
    for (let i = 0; i < 5; i++) expect((await meWith(app, wrong)).status).toBe(401)
    expect((await meWith(app, key)).status).toBe(200)
    expect((await meWith(app, key)).status).toBe(200)
    expect((await meWith(app, key)).status).toBe(429)
  })

  it('RATE_LIMIT_API_KEY sets the limit; a value that is no count of requests stops start-up naming it', async () => {
    const { app } = await t.build({ env: { RATE_LIMIT_API_KEY: '2' } })
    const user = await makeUser()
    const { key } = await withApiKey(app, user.email)
    expect((await meWith(app, key)).status).toBe(200)
    expect((await meWith(app, key)).status).toBe(200)
    expect((await meWith(app, key)).status).toBe(429)
    const base = { NODE_ENV: 'test', DATABASE_URL: 'sqlite::memory:', ...testSecrets() }
    for (const bad of ['0', '-5', 'lots', '1.5']) {
      expect(() => parseEnv({ ...base, RATE_LIMIT_API_KEY: bad }, features), bad).toThrow(EnvError)
      expect(() => parseEnv({ ...base, RATE_LIMIT_API_KEY: bad }, features), bad).toThrow(/RATE_LIMIT_API_KEY/)
    }
    expect(envOf(config, parseEnv({ ...base, RATE_LIMIT_API_KEY: '1200' }, features)).RATE_LIMIT_API_KEY).toBe(1200)
    expect(envOf(config, parseEnv(base, features)).RATE_LIMIT_API_KEY).toBeUndefined()
  })

  describe.skipIf(!redisUrl)(`with Redis, shared by every instance${redisLabel}`, () => {
    it('two instances count one key together', async () => {
      const keyPrefix = `${inject('keyPrefix')}${randomUUID().slice(0, 8)}:`
      const options = { redis: true, keyPrefix, rateLimits: { apiKey: { limit: 3, windowMs: minute } } }
      const [a, b] = [await t.build(options), await t.build(options)]
      const user = await makeUser()
      const { key } = await withApiKey(a.app, user.email)
      expect((await meWith(a.app, key)).status).toBe(200)
      expect((await meWith(b.app, key)).status).toBe(200)
      expect((await meWith(a.app, key)).status).toBe(200)
      expect((await meWith(b.app, key)).status).toBe(429)
      expect((await meWith(a.app, key)).status).toBe(429)
    })
  })
})
