import supertest from 'supertest'
import { beforeAll, describe, expect, it } from 'vitest'
import type { AppFeature } from '../src/kernel/context.js'
import { features } from '../src/features/index.js'
import { User } from '../src/kernel/models/index.js'
import { login, makeUser, names, useTestApps, withCookies, type TestApp } from './helpers/test-app.js'

const t = useTestApps()

/**
 * A stand-in layer with a way to authenticate a request of its own (the kernel's `authenticators`
 * point): `Bearer test_<userId>_<scopes>` is that user with those scopes, `Bearer test_bad` is of
 * its kind but proves nothing. What the kernel must do with it is what an API key relies on.
 */
const testKeys: AppFeature = {
  name: 'test-keys',
  authenticators: [
    {
      name: 'test-key',
      securitySchemes: { testKey: { type: 'http', scheme: 'bearer' } },
      async authenticate(_req, header) {
        const match = /^Bearer test_(\w+?)(?:_([\w,]*))?$/.exec(header)
        if (!match) return undefined
        if (match[1] === 'bad') return null
        return { userId: Number(match[1]), scopes: (match[2] ?? '').split(',').filter(Boolean), credentialId: `k${match[1]}` }
      },
    },
  ],
}

const key = (userId: number, scopes: string) => ({ Authorization: `Bearer test_${userId}_${scopes}` })

describe('authenticators: a way in of a layer, judged by the kernel', () => {
  let app: TestApp['app']
  beforeAll(async () => {
    ;({ app } = await t.build({ features: [...features, testKeys] }))
  })

  it('a key is its user on the routes it may read', async () => {
    const user = await makeUser()
    const res = await supertest(app).get('/api/auth/me').set(key(user.id, 'read'))
    expect(res.status).toBe(200)
    expect(res.body.user.id).toBe(user.id)
    expect((await supertest(app).get('/api/account/activity').set(key(user.id, 'read'))).status).toBe(200)
  })

  it('an unknown, bad or foreign header is 401 with the usual body, and a gone user too', async () => {
    const user = await makeUser()
    for (const header of ['Bearer test_bad', 'Bearer nothing-of-ours', 'Basic dXNlcjpwYXNz', 'Bearer a.b.c']) {
      const res = await supertest(app).get('/api/auth/me').set('Authorization', header)
      expect(res.status, header).toBe(401)
      expect(res.body).toEqual({ message: 'Unauthenticated.' })
    }
    await User.destroy({ where: { id: user.id } })
    expect((await supertest(app).get('/api/auth/me').set(key(user.id, 'read'))).status).toBe(401)
  })

  it('the method needs its scope: read for GET, write for the others (403 with a message)', async () => {
    const user = await makeUser()
    const writeOnly = await supertest(app).get('/api/auth/me').set(key(user.id, 'write'))
    expect(writeOnly.status).toBe(403)
    expect(writeOnly.body).toEqual({ message: 'The key used lacks the scope this needs.' })
    const readOnly = await supertest(app).post('/api/webhooks').set(key(user.id, 'read')).send({})
    expect(readOnly.status).toBe(403)
    expect(readOnly.body.message).toBe('The key used lacks the scope this needs.')
  })

  it('admin routes need the admin scope and an admin, both at the time of use', async () => {
    const admin = await makeUser({ role: 'admin' })
    expect((await supertest(app).get('/api/users').set(key(admin.id, 'read'))).status).toBe(403)
    expect((await supertest(app).get('/api/users').set(key(admin.id, 'read,admin'))).status).toBe(200)
    const user = await makeUser()
    expect((await supertest(app).get('/api/users').set(key(user.id, 'read,admin'))).status).toBe(403)
  })

  it('credentials, sessions and step-up are the sessions alone: account and auth routes answer 403 to a key', async () => {
    const user = await makeUser()
    const all = key(user.id, 'read,write,admin')
    const refused: [string, string][] = [
      ['get', '/api/account/sessions'],
      ['get', '/api/account/confirm'],
      ['post', '/api/account/confirm'],
      ['patch', '/api/account/profile'],
      ['put', '/api/account/password'],
      ['delete', '/api/account/sessions'],
      ['post', '/api/auth/logout'],
      ['post', '/api/auth/logout-all'],
      ['post', '/api/auth/login'],
      ['post', '/api/auth/refresh-token'],
    ]
    for (const [method, path] of refused) {
      const res = await supertest(app)[method as 'get'](path).set(all).send({})
      expect(res.status, `${method} ${path}`).toBe(403)
    }
  })

  it('the API document and the routers agree, route by route, on where only a session may go', async () => {
    const admin = await makeUser({ role: 'admin' })
    const all = key(admin.id, 'read,write,admin')
    const document = (await supertest(app).get('/api/openapi.json')).body as { paths: Record<string, Record<string, { security?: object[] }>> }
    const checked: string[] = []
    for (const [path, operations] of Object.entries(document.paths)) {
      for (const [method, operation] of Object.entries(operations)) {
        const keyMay = (operation.security ?? []).some((scheme) => 'testKey' in scheme)
        // Sign-in's and the account's routes, signed out ones included, are where the rule applies.
        const ruled = keyMay || /^\/api\/(auth|account)(\/|$)/.test(path)
        if (!ruled || (keyMay && method !== 'get')) continue
        const res = await supertest(app)[method as 'get'](path.replace(/\{\w+\}/g, '999999')).set(all).send({})
        // Where a key may go, only the route itself answers (a 404 for the made-up id, a 422); elsewhere the guard's 403.
        if (keyMay) expect(res.status, `${method} ${path}`).not.toBe(403)
        else expect([res.status, res.body], `${method} ${path}`).toEqual([403, { message: 'Forbidden.' }])
        checked.push(`${method} ${path}`)
      }
    }
    expect(checked).toContain('get /api/account/activity')
    expect(checked).toContain('delete /api/account')
    expect(checked).toContain('post /api/account/email/confirm')
    expect(checked).toContain('post /api/auth/login')
  })

  it('step-up routes outside the account refuse a key too: it can never confirm', async () => {
    const admin = await makeUser({ role: 'admin' })
    const other = await makeUser()
    // An admin's role change asks for a confirmation; a key is refused before it is asked.
    const res = await supertest(app).patch(`/api/users/${other.id}`).set(key(admin.id, 'read,write,admin')).send({ role: 'admin' })
    expect(res.status).toBe(403)
    expect(res.body).toEqual({ message: 'Forbidden.' })
  })

  it('a request with a header is judged by it alone: cookies are not read, and no CSRF check is asked', async () => {
    const owner = await makeUser()
    const other = await makeUser()
    const { cookies } = await login(app, other.email)
    const me = await supertest(app).get('/api/auth/me').set(key(owner.id, 'read')).set(withCookies(cookies))
    expect(me.body.user.id).toBe(owner.id)
    // A bad key with a good session cookie is still a 401: the cookie is not a fallback.
    expect((await supertest(app).get('/api/auth/me').set('Authorization', 'Bearer test_bad').set(withCookies(cookies))).status).toBe(401)
    // A cookie-carrying post from another origin is refused; with a key it needs no Origin at all.
    const cookiePost = await supertest(app).post('/api/nothing-here').set('Origin', 'https://evil.example').set('Cookie', `${names().access}=x`).send({})
    expect(cookiePost.status).toBe(403)
    const keyPost = await supertest(app).post('/api/nothing-here').set('Origin', 'https://evil.example').set('Cookie', `${names().access}=x`).set(key(owner.id, 'write')).send({})
    expect(keyPost.status).toBe(404)
  })

  it("a session's own access token as a bearer is still a session", async () => {
    const user = await makeUser()
    const { accessToken } = await login(app, user.email)
    const res = await supertest(app).get('/api/account/sessions').set('Authorization', `Bearer ${accessToken}`)
    expect(res.status).toBe(200)
  })
})
