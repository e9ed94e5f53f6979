import supertest from 'supertest'
import { beforeAll, describe, expect, it } from 'vitest'
import { apiKeyApi, bearer, meWith, withApiKey } from './helpers/api-keys.js'
import { login, makeUser, useTestApps, withCookies, type TestApp } from './helpers/test-app.js'
import { ApiKey } from '../src/features/api-keys/models/api-key.js'

const t = useTestApps()

const SCOPE = { message: 'The key used lacks the scope this needs.' }

describe('what a key may do: its scopes on real routes', () => {
  let app: TestApp['app']
  beforeAll(async () => {
    ;({ app } = await t.build())
  })

  const rename = (key: string, id: number, name: string) => supertest(app).patch(`/api/users/${id}`).set(bearer(key)).send({ name })
  const users = (key: string) => supertest(app).get('/api/users').set(bearer(key))

  it('read: the GET routes of its user, and nothing that writes', async () => {
    const user = await makeUser()
    const { key } = await withApiKey(app, user.email, { scopes: ['read'] })
    const me = await meWith(app, key)
    expect(me.status).toBe(200)
    expect(me.body.user).toMatchObject({ id: user.id, email: user.email })
    expect((await supertest(app).get('/api/account/activity').set(bearer(key))).status).toBe(200)
    const write = await supertest(app).post('/api/webhooks').set(bearer(key)).send({ url: 'https://hooks.example.test/x', events: ['*'] })
    expect(write.status).toBe(403)
    expect(write.body).toEqual(SCOPE)
  })

  it('write without read: the writes, and no GET', async () => {
    const admin = await makeUser({ role: 'admin' })
    const target = await makeUser()
    const { key } = await withApiKey(app, admin.email, { scopes: ['write', 'admin'] })
    const me = await meWith(app, key)
    expect(me.status).toBe(403)
    expect(me.body).toEqual(SCOPE)
    expect((await users(key)).status).toBe(403)
    const renamed = await rename(key, target.id, 'Renamed by a script')
    expect(renamed.status, JSON.stringify(renamed.body)).toBe(200)
    expect(renamed.body.user).toMatchObject({ id: target.id, name: 'Renamed by a script' })
  })

  it('admin: the admin routes need the admin scope and an admin; read and write still apply there', async () => {
    const admin = await makeUser({ role: 'admin' })
    const target = await makeUser()
    const full = await withApiKey(app, admin.email, { scopes: ['read', 'write', 'admin'] })
    expect((await users(full.key)).status).toBe(200)
    expect((await rename(full.key, target.id, 'By the admin key')).status).toBe(200)
    const plain = await withApiKey(app, admin.email, { scopes: ['read', 'write'] })
    expect((await users(plain.key)).status).toBe(403)
    expect((await rename(plain.key, target.id, 'Not by this one')).status).toBe(403)
    const readAdmin = await withApiKey(app, admin.email, { scopes: ['read', 'admin'] })
    expect((await users(readAdmin.key)).status).toBe(200)
    const denied = await rename(readAdmin.key, target.id, 'Not without write')
    expect(denied.status).toBe(403)
    expect(denied.body).toEqual(SCOPE)
  })

  it('a step-up route refuses a key, whatever its scopes: a key cannot confirm', async () => {
    const admin = await makeUser({ role: 'admin' })
    const target = await makeUser()
    const { key } = await withApiKey(app, admin.email, { scopes: ['read', 'write', 'admin'] })
    const res = await supertest(app).patch(`/api/users/${target.id}`).set(bearer(key)).send({ role: 'admin' })
    expect(res.status).toBe(403)
    expect(res.body).toEqual({ message: 'Forbidden.' })
  })

  it('the admin scope is for admins: a user asking for it is 422 errors.scopes, and no key is made', async () => {
    const user = await makeUser()
    const { cookies } = await login(app, user.email)
    const res = await apiKeyApi(app, cookies).create({ name: 'Sneaky', scopes: ['read', 'admin'] })
    expect(res.status).toBe(422)
    expect(res.body).toEqual({ message: 'Only administrators can give a key the admin scope.', errors: { scopes: ['Only administrators can give a key the admin scope.'] } })
    expect(await ApiKey.count({ where: { userId: user.id } })).toBe(0)
  })

  it("a demoted admin's admin-scoped key loses the admin routes at once, and keeps its own user's", async () => {
    const [admin, other] = [await makeUser({ role: 'admin' }), await makeUser({ role: 'admin' })]
    const { key } = await withApiKey(app, admin.email, { scopes: ['read', 'write', 'admin'] })
    expect((await users(key)).status).toBe(200)
    const { cookies } = await login(app, other.email)
    const demoted = await supertest(app).patch(`/api/users/${admin.id}`).set(withCookies(cookies)).send({ role: 'user' })
    expect(demoted.status, JSON.stringify(demoted.body)).toBe(200)
    const after = await users(key)
    expect(after.status).toBe(403)
    expect((await meWith(app, key)).body.user.role).toBe('user')
    // Promoted again, the key's admin scope counts again: it never lost it, the user did.
    await supertest(app).patch(`/api/users/${admin.id}`).set(withCookies(cookies)).send({ role: 'admin' }).expect(200)
    expect((await users(key)).status).toBe(200)
  })
})
