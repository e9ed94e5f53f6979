import supertest from 'supertest'
import { beforeAll, describe, expect, it } from 'vitest'
import { SecurityEvent } from '../src/models/index.js'
import { linkIn, mailTo } from './helpers/mail.js'
import { account } from './helpers/requests.js'
import { apiKeyApi, meWith, withApiKey } from './helpers/api-keys.js'
import { login, makeUser, PASSWORD, useTestApps, withCookies, type TestApp } from './helpers/test-app.js'
import { ApiKey } from '../src/features/api-keys/models/api-key.js'

const t = useTestApps()

describe('revoking keys: each way answers 401 on the next request', () => {
  let app: TestApp['app']
  beforeAll(async () => {
    ;({ app } = await t.build())
  })

  /** Two keys of the user, both used once (so both sit in the cache), and one key of someone else. */
  async function keysOf(email: string) {
    const first = await withApiKey(app, email, { name: 'one' })
    const second = await withApiKey(app, email, { name: 'two', scopes: ['read'] })
    const bystander = await withApiKey(app, (await makeUser()).email, { name: 'theirs' })
    for (const { key } of [first, second, bystander]) expect((await meWith(app, key)).status).toBe(200)
    return { keys: [first.key, second.key], cookies: first.cookies, bystander: bystander.key }
  }

  async function expectRevoked(keys: string[], bystander: string) {
    for (const key of keys) {
      const res = await meWith(app, key)
      expect(res.status).toBe(401)
      expect(res.body).toEqual({ message: 'Unauthenticated.' })
    }
    expect((await meWith(app, bystander)).status).toBe(200)
  }

  it('DELETE /api/account/api-keys/:id: that key alone', async () => {
    const user = await makeUser()
    const { keys, cookies, bystander } = await keysOf(user.email)
    const listed = (await apiKeyApi(app, cookies).list()).body.data as { id: number; name: string }[]
    const one = listed.find((row) => row.name === 'one')!
    expect((await apiKeyApi(app, cookies).revoke(one.id)).status).toBe(204)
    await expectRevoked([keys[0]!], bystander)
    expect((await meWith(app, keys[1]!)).status).toBe(200)
    const event = await SecurityEvent.findOne({ where: { userId: user.id, type: 'api_key_revoked' } })
    expect(JSON.parse(event!.meta!)).toEqual({ name: 'one', prefix: expect.stringMatching(/^cca_[A-Za-z0-9]{12}$/) })
  })

  it('a password change: every key of the user', async () => {
    const user = await makeUser()
    const { keys, cookies, bystander } = await keysOf(user.email)
    const res = await account(app, cookies).changePassword({ current_password: PASSWORD, password: 'a brand new secret' })
    expect(res.status).toBe(200)
    await expectRevoked(keys, bystander)
    expect(await ApiKey.count({ where: { userId: user.id, revokedAt: null } })).toBe(0)
    // Gone from the list too: the owner sees what still works.
    expect((await apiKeyApi(app, cookies).list()).body.data).toEqual([])
  })

  it('a password reset: every key of the user', async () => {
    const user = await makeUser()
    const { keys, bystander } = await keysOf(user.email)
    // The keys' notices reach the same address: wait for the link's mail itself.
    const waiting = (await t.mailServer()).next((mail) => mailTo(user.email)(mail) && mail.body.includes('/reset-password?token='))
    await supertest(app).post('/api/auth/forgot-password').send({ email: user.email }).expect(200)
    const link = linkIn(await waiting, 'reset-password')
    const res = await supertest(app).post('/api/auth/reset-password').send({ email: link.email, token: link.token, password: 'a brand new secret' })
    expect(res.status).toBe(200)
    await expectRevoked(keys, bystander)
  })

  it('sign out everywhere: every key of the user', async () => {
    const user = await makeUser()
    const { keys, cookies, bystander } = await keysOf(user.email)
    expect((await supertest(app).post('/api/auth/logout-all').set(withCookies(cookies))).status).toBe(204)
    await expectRevoked(keys, bystander)
  })

  it('signing out the other sessions: every key of the user', async () => {
    const user = await makeUser()
    const { keys, cookies, bystander } = await keysOf(user.email)
    expect((await account(app, cookies).revokeOthers({})).status).toBe(204)
    await expectRevoked(keys, bystander)
  })

  it('an admin signing the user out everywhere: every key of the user', async () => {
    const [user, admin] = [await makeUser(), await makeUser({ role: 'admin' })]
    const { keys, bystander } = await keysOf(user.email)
    const { cookies } = await login(app, admin.email)
    expect((await supertest(app).delete(`/api/users/${user.id}/sessions`).set(withCookies(cookies))).status).toBe(204)
    await expectRevoked(keys, bystander)
  })

  it('deleting the account: every key, and the rows go with the user', async () => {
    const user = await makeUser()
    const { keys, cookies, bystander } = await keysOf(user.email)
    expect((await account(app, cookies).remove({ password: PASSWORD })).status).toBe(204)
    await expectRevoked(keys, bystander)
    expect(await ApiKey.count({ where: { userId: user.id } })).toBe(0)
  })

  it('one sign-out is not a revocation of the keys: they keep working', async () => {
    const user = await makeUser()
    const { keys, cookies } = await keysOf(user.email)
    expect((await supertest(app).post('/api/auth/logout').set(withCookies(cookies))).status).toBe(204)
    for (const key of keys) expect((await meWith(app, key)).status).toBe(200)
  })

  it('a wrong secret, an unknown id or a malformed key is 401; the right one still works', async () => {
    const user = await makeUser()
    const live = (await withApiKey(app, user.email)).key
    const [, id, secret] = /^cca_([A-Za-z0-9]+)_(.+)$/.exec(live)!
    const flipped = secret!.startsWith('A') ? `B${secret!.slice(1)}` : `A${secret!.slice(1)}`
    for (const bad of [`cca_${id}_${flipped}`, `cca_AAAAAAAAAAAA_${secret}`, `cca_${id}`, `cca_${id}_`, `cca__${secret}`, `cca_${id}_${secret}x`, 'cca_']) {
      const res = await meWith(app, bad)
      expect(res.status, bad).toBe(401)
      expect(res.body).toEqual({ message: 'Unauthenticated.' })
    }
    expect((await meWith(app, live)).status).toBe(200)
  })

  it('an expired key is 401 from its expiry on, even while cached', async () => {
    const user = await makeUser()
    const { key } = await withApiKey(app, user.email, { expires_in: 2 })
    expect((await meWith(app, key)).status).toBe(200)
    // MySQL keeps whole seconds (it may round up): a second more than the key's two.
    await new Promise((resolve) => setTimeout(resolve, 3_100))
    expect((await meWith(app, key)).status).toBe(401)
  })
})
