import supertest from 'supertest'
import { beforeAll, describe, expect, it } from 'vitest'
import { User } from '../src/models/index.js'
import { bearer, meWith, withApiKey } from './helpers/api-keys.js'
import { login, makeUser, useTestApps, withCookies, type TestApp } from './helpers/test-app.js'

const t = useTestApps()

const EVIL = 'https://evil.example'

describe('a key is judged by its header alone: no cookie, no CSRF check, no account or sign-in routes', () => {
  let app: TestApp['app']
  beforeAll(async () => {
    ;({ app } = await t.build())
  })

  it('a write with a key needs no Origin, and passes with any: it is no browser riding on cookies', async () => {
    const admin = await makeUser({ role: 'admin' })
    const target = await makeUser()
    const { key, cookies } = await withApiKey(app, admin.email, { scopes: ['read', 'write', 'admin'] })
    for (const origin of [undefined, EVIL]) {
      const req = supertest(app).patch(`/api/users/${target.id}`).set(bearer(key))
      const res = await (origin ? req.set('Origin', origin) : req).send({ name: `Renamed ${origin ?? 'without origin'}` })
      expect(res.status, JSON.stringify(res.body)).toBe(200)
    }
    expect((await User.findByPk(target.id))!.name).toBe(`Renamed ${EVIL}`)
    // The same write riding on the session's cookies from that origin is refused.
    const riding = await supertest(app).patch(`/api/users/${target.id}`).set(withCookies(cookies)).set('Origin', EVIL).send({ name: 'Forged' })
    expect(riding.status).toBe(403)
    expect((await User.findByPk(target.id))!.name).toBe(`Renamed ${EVIL}`)
  })

  it("with the header present the cookies are never read: the key's user, and a bad key is 401 whatever cookie comes with it", async () => {
    const [owner, admin] = [await makeUser(), await makeUser({ role: 'admin' })]
    const { key } = await withApiKey(app, owner.email, { scopes: ['read', 'write'] })
    const { cookies } = await login(app, admin.email)
    const me = await meWith(app, key).set(withCookies(cookies))
    expect(me.status).toBe(200)
    expect(me.body.user.id).toBe(owner.id)
    // The admin's cookie does not lend the key's user the admin routes.
    expect((await supertest(app).get('/api/users').set(bearer(key)).set(withCookies(cookies))).status).toBe(403)
    const revokedOrWrong = `${key.slice(0, -4)}AAAA` === key ? `${key.slice(0, -4)}BBBB` : `${key.slice(0, -4)}AAAA`
    const bad = await meWith(app, revokedOrWrong).set(withCookies(cookies))
    expect(bad.status).toBe(401)
    // Nor are cookies renewed or set for a key's request.
    expect(me.headers['set-cookie']).toBeUndefined()
  })

  it('account routes (but the activity) and sign-in routes (but /me) answer 403 to a key, even one with every scope', async () => {
    const admin = await makeUser({ role: 'admin' })
    const { key, apiKey } = await withApiKey(app, admin.email, { scopes: ['read', 'write', 'admin'] })
    const refused: [string, string, object?][] = [
      ['get', '/api/account/api-keys'],
      ['post', '/api/account/api-keys', { name: 'minted by a key', scopes: ['read', 'write', 'admin'] }],
      ['patch', `/api/account/api-keys/${apiKey.id}`, { name: 'renamed by a key' }],
      ['delete', `/api/account/api-keys/${apiKey.id}`],
      ['get', '/api/account/sessions'],
      ['delete', '/api/account/sessions'],
      ['get', '/api/account/confirm'],
      ['post', '/api/account/confirm', { password: 'anything at all' }],
      ['patch', '/api/account/profile', { name: 'New name' }],
      ['put', '/api/account/password', { current_password: 'x', password: 'another long password' }],
      ['post', '/api/account/email', { email: 'new@example.test', password: 'x' }],
      ['delete', '/api/account', { password: 'x' }],
      ['post', '/api/auth/logout'],
      ['post', '/api/auth/logout-all'],
      ['post', '/api/auth/refresh-token'],
    ]
    for (const [method, path, body] of refused) {
      const res = await supertest(app)[method as 'post'](path).set(bearer(key)).send(body ?? {})
      expect(res.status, `${method} ${path}`).toBe(403)
    }
    expect((await supertest(app).get('/api/account/activity').set(bearer(key))).status).toBe(200)
    expect((await meWith(app, key)).status).toBe(200)
    // Nothing above changed a thing: the key is as it was, and still the only one.
    const { cookies } = await login(app, admin.email)
    const listed = await supertest(app).get('/api/account/api-keys').set(withCookies(cookies))
    expect(listed.body.data).toEqual([expect.objectContaining({ id: apiKey.id, name: 'Deploy script' })])
  })
})
