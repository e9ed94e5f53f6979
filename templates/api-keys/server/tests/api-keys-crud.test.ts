import { beforeAll, describe, expect, it } from 'vitest'
import { unconfirm } from './helpers/confirmation.js'
import { within } from './helpers/requests.js'
import { apiKeyApi, meWith, withApiKey } from './helpers/api-keys.js'
import { login, makeUser, useTestApps, type TestApp } from './helpers/test-app.js'
import { ApiKey } from '../src/features/api-keys/models/api-key.js'

const t = useTestApps()

const KEY = /^cca_([A-Za-z0-9]{12})_([A-Za-z0-9_-]{43})$/

describe('/api/account/api-keys: make, list, rename, revoke', () => {
  let app: TestApp['app']
  beforeAll(async () => {
    ;({ app } = await t.build())
  })

  it('POST makes a key: 201 {api_key, key}, the key shown this once and working at once', async () => {
    const user = await makeUser()
    const { cookies } = await login(app, user.email)
    const res = await apiKeyApi(app, cookies).create({ name: '  Deploy script  ', scopes: ['write', 'read', 'read'], expires_in: '30d' })
    expect(res.status, JSON.stringify(res.body)).toBe(201)
    const { api_key: apiKey, key } = res.body
    expect(key).toMatch(KEY)
    expect(apiKey).toEqual({
      id: expect.any(Number),
      name: 'Deploy script',
      prefix: `cca_${KEY.exec(key)![1]}`,
      scopes: ['read', 'write'],
      createdAt: expect.any(String),
      expiresAt: expect.any(String),
      lastUsedAt: null,
      lastUsedIp: null,
    })
    const lives = new Date(apiKey.expiresAt).getTime() - new Date(apiKey.createdAt).getTime()
    expect(Math.abs(lives - 30 * 86_400_000)).toBeLessThan(5_000)
    const me = await meWith(app, key)
    expect(me.status).toBe(200)
    expect(me.body.user.id).toBe(user.id)
    // Never again: not in the list, not in a rename's answer.
    const listed = await apiKeyApi(app, cookies).list()
    expect(JSON.stringify(listed.body)).not.toContain(KEY.exec(key)![2])
    const renamed = await apiKeyApi(app, cookies).rename(apiKey.id, { name: 'CI' })
    expect(JSON.stringify(renamed.body)).not.toContain(KEY.exec(key)![2])
  })

  it('a secret holding `_` (base64url) still works: a key is split on its first two underscores only', async () => {
    const user = await makeUser()
    const { cookies } = await login(app, user.email)
    let key = ''
    // About half of all secrets hold one; 30 tries miss with a chance of about 1 in a billion.
    for (let i = 0; i < 30 && !KEY.exec(key)?.[2]!.includes('_'); i++) key = (await apiKeyApi(app, cookies).create({ name: `k${i}`, scopes: ['read'] })).body.key
    expect(KEY.exec(key)![2]).toContain('_')
    const me = await meWith(app, key)
    expect(me.status).toBe(200)
    expect(me.body.user.id).toBe(user.id)
  })

  it('expires_in takes seconds or a duration as in .env; absent or null never expires', async () => {
    const user = await makeUser()
    const { cookies } = await login(app, user.email)
    const api = apiKeyApi(app, cookies)
    for (const [expiresIn, seconds] of [[900, 900], ['900', 900], ['15m', 900], ['2h', 7200], ['1d', 86_400]] as const) {
      const res = await api.create({ name: 'k', scopes: ['read'], expires_in: expiresIn })
      expect(res.status, String(expiresIn)).toBe(201)
      const lives = new Date(res.body.api_key.expiresAt).getTime() - new Date(res.body.api_key.createdAt).getTime()
      expect(Math.abs(lives - seconds * 1000), String(expiresIn)).toBeLessThan(5_000)
    }
    for (const body of [{ name: 'k', scopes: ['read'] }, { name: 'k', scopes: ['read'], expires_in: null }]) {
      const res = await api.create(body)
      expect(res.status).toBe(201)
      expect(res.body.api_key.expiresAt).toBeNull()
    }
  })

  it('GET lists the live keys newest first, without the key or its hash; revoked keys are gone from it', async () => {
    const [user, other] = [await makeUser(), await makeUser()]
    const first = await withApiKey(app, user.email, { name: 'first' })
    const { cookies } = first
    const api = apiKeyApi(app, cookies)
    const second = (await api.create({ name: 'second', scopes: ['read'] })).body
    const third = (await api.create({ name: 'third', scopes: ['read', 'write'] })).body
    await withApiKey(app, other.email, { name: 'theirs' })
    const res = await api.list()
    expect(res.status).toBe(200)
    expect(res.body.data.map((row: { name: string }) => row.name)).toEqual(['third', 'second', 'first'])
    expect(res.body.data[0]).toEqual(third.api_key)
    const row = await ApiKey.findByPk(first.apiKey.id)
    const text = JSON.stringify(res.body)
    expect(text).not.toContain(row!.secretHash)
    for (const key of [first.key, second.key, third.key]) expect(text).not.toContain(key)
    expect((await api.revoke(second.api_key.id)).status).toBe(204)
    expect((await api.list()).body.data.map((row: { name: string }) => row.name)).toEqual(['third', 'first'])
  })

  it('PATCH renames: 200 {api_key}; the key keeps working; a bad name is 422', async () => {
    const user = await makeUser()
    const { cookies, apiKey, key } = await withApiKey(app, user.email)
    const api = apiKeyApi(app, cookies)
    const res = await api.rename(apiKey.id, { name: '  Nightly backup ' })
    expect(res.status).toBe(200)
    expect(res.body).toEqual({ api_key: { ...apiKey, name: 'Nightly backup', createdAt: expect.any(String), expiresAt: null, lastUsedAt: null, lastUsedIp: null } })
    expect((await ApiKey.findByPk(apiKey.id))!.name).toBe('Nightly backup')
    expect((await meWith(app, key)).status).toBe(200)
    for (const name of ['', '   ', 'x'.repeat(101), 'two\nlines', 42, null]) {
      const bad = await api.rename(apiKey.id, { name })
      expect(bad.status, JSON.stringify(name)).toBe(422)
      expect(Object.keys(bad.body.errors)).toEqual(['name'])
    }
    expect((await api.rename(apiKey.id, { name: 'x'.repeat(100) })).status).toBe(200)
  })

  it('DELETE revokes: 204, and the key answers 401 on its very next request', async () => {
    const user = await makeUser()
    const { cookies, apiKey, key } = await withApiKey(app, user.email)
    // Cached by this use: the revocation must drop it, not wait for the cache to age.
    expect((await meWith(app, key)).status).toBe(200)
    const res = await apiKeyApi(app, cookies).revoke(apiKey.id)
    expect(res.status).toBe(204)
    const next = await meWith(app, key)
    expect(next.status).toBe(401)
    expect(next.body).toEqual({ message: 'Unauthenticated.' })
    expect((await ApiKey.findByPk(apiKey.id))!.revokedAt).toBeInstanceOf(Date)
    // Revoked is unknown: no second revocation, no rename.
    expect((await apiKeyApi(app, cookies).revoke(apiKey.id)).status).toBe(404)
    expect((await apiKeyApi(app, cookies).rename(apiKey.id, { name: 'back' })).status).toBe(404)
  })

  it("another user's key, an unknown id or a non-number is 404, to rename and to revoke, and the key still works", async () => {
    const [user, other] = [await makeUser(), await makeUser()]
    const { cookies } = await withApiKey(app, user.email)
    const theirs = await withApiKey(app, other.email)
    const api = apiKeyApi(app, cookies)
    for (const id of [theirs.apiKey.id, 99_999_999, 'abc', '1e3', theirs.apiKey.prefix]) {
      const renamed = await api.rename(id, { name: 'Mine now' })
      expect(renamed.status, String(id)).toBe(404)
      expect(renamed.body).toEqual({ message: 'Not Found.' })
      expect((await api.revoke(id)).status, String(id)).toBe(404)
    }
    expect((await ApiKey.findByPk(theirs.apiKey.id))!.name).toBe('Deploy script')
    expect((await meWith(app, theirs.key)).status).toBe(200)
  })

  it('validation: name, scopes and expires_in answer 422 on their field, and nothing is made', async () => {
    const user = await makeUser()
    const { cookies } = await login(app, user.email)
    const api = apiKeyApi(app, cookies)
    const before = await ApiKey.count({ where: { userId: user.id } })
    const cases: [object, string][] = [
      [{ scopes: ['read'] }, 'name'],
      [{ name: '  ', scopes: ['read'] }, 'name'],
      [{ name: 'x'.repeat(101), scopes: ['read'] }, 'name'],
      [{ name: 'k' }, 'scopes'],
      [{ name: 'k', scopes: [] }, 'scopes'],
      [{ name: 'k', scopes: 'read' }, 'scopes'],
      [{ name: 'k', scopes: ['read', 'delete'] }, 'scopes.1'],
      [{ name: 'k', scopes: ['read'], expires_in: 'soon' }, 'expires_in'],
      [{ name: 'k', scopes: ['read'], expires_in: 0 }, 'expires_in'],
      [{ name: 'k', scopes: ['read'], expires_in: -60 }, 'expires_in'],
      [{ name: 'k', scopes: ['read'], expires_in: '2w' }, 'expires_in'],
      [{ name: 'k', scopes: ['read'], expires_in: '99999d' }, 'expires_in'],
      [{ name: 'k', scopes: ['read'], expires_in: true }, 'expires_in'],
    ]
    for (const [body, field] of cases) {
      const res = await api.create(body)
      expect(res.status, JSON.stringify(body)).toBe(422)
      expect(Object.keys(res.body.errors), JSON.stringify(body)).toEqual([field])
      expect(res.body.message).toEqual(expect.any(String))
    }
    expect((await api.create({ name: 'x'.repeat(100), scopes: ['read'] })).status).toBe(201)
    expect(await ApiKey.count({ where: { userId: user.id } })).toBe(before + 1)
  })

  it("step-up: making a key without a live confirmation is 403 Confirm it's you…, and nothing is made", async () => {
    const user = await makeUser()
    const { cookies } = await login(app, user.email)
    await unconfirm(user.id)
    const res = await apiKeyApi(app, cookies).create({ name: 'k', scopes: ['read'] })
    expect(res.status).toBe(403)
    expect(res.body.message).toBe("Confirm it's you to continue.")
    expect(res.body.errors).toEqual({ confirm: [expect.any(String)] })
    expect(await ApiKey.count({ where: { userId: user.id } })).toBe(0)
    // Listing, renaming and revoking ask for no confirmation.
    expect((await apiKeyApi(app, cookies).list()).status).toBe(200)
  })

  it('a use notes lastUsedAt and lastUsedIp, written at most once a minute per key', async () => {
    // A short-lived cache, so the key is read again from the database between requests.
    const { app: quick } = await t.build({ authCache: { ttlMs: 50 } })
    const user = await makeUser()
    const { key, apiKey, cookies } = await withApiKey(quick, user.email)
    const row = () => ApiKey.findByPk(apiKey.id)
    expect((await meWith(quick, key)).status).toBe(200)
    // Written beside the request, not before its answer.
    await within(5_000, async () => (await row())!.lastUsedAt !== null)
    const first = (await row())!
    expect(Date.now() - first.lastUsedAt!.getTime()).toBeLessThan(10_000)
    expect(first.lastUsedIp).toMatch(/127\.0\.0\.1|::1/)
    const listed = (await apiKeyApi(quick, cookies).list()).body.data[0]
    expect(listed).toMatchObject({ lastUsedAt: first.lastUsedAt!.toISOString(), lastUsedIp: first.lastUsedIp })
    // Within the minute, more uses (from a cache read afresh each time) write nothing.
    for (let i = 0; i < 3; i++) {
      await new Promise((resolve) => setTimeout(resolve, 60))
      expect((await meWith(quick, key)).status).toBe(200)
    }
    await new Promise((resolve) => setTimeout(resolve, 200))
    expect((await row())!.lastUsedAt!.getTime()).toBe(first.lastUsedAt!.getTime())
    // A minute on (the last use moved back), the next use is written again.
    await ApiKey.update({ lastUsedAt: new Date(Date.now() - 61_000), lastUsedIp: '203.0.113.9' }, { where: { id: apiKey.id }, silent: true })
    await new Promise((resolve) => setTimeout(resolve, 60))
    expect((await meWith(quick, key)).status).toBe(200)
    await within(5_000, async () => (await row())!.lastUsedIp !== '203.0.113.9')
    expect(Date.now() - (await row())!.lastUsedAt!.getTime()).toBeLessThan(10_000)
  })

  it('signed out, every route is 401', async () => {
    const anonymous = apiKeyApi(app, {})
    for (const res of [await anonymous.list(), await anonymous.create({ name: 'k', scopes: ['read'] }), await anonymous.rename(1, { name: 'k' }), await anonymous.revoke(1)]) {
      expect(res.status).toBe(401)
    }
  })
})
