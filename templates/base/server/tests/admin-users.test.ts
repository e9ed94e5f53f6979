import supertest from 'supertest'
import { beforeAll, describe, expect, it } from 'vitest'
import { User } from '../src/kernel/models/index.js'
import { me } from './helpers/requests.js'
import { login, makeUser, useTestApps, withCookies, type TestApp } from './helpers/test-app.js'

const t = useTestApps()

describe('PATCH /api/users/:id (admin)', () => {
  let app: TestApp['app']
  let admin: Record<string, string>
  let adminId: number
  beforeAll(async () => {
    ;({ app } = await t.build())
    const user = await makeUser({ role: 'admin' })
    adminId = user.id
    admin = (await login(app, user.email)).cookies
  })
  const patch = (id: number | string, body: object, cookies = admin) => supertest(app).patch(`/api/users/${id}`).set(withCookies(cookies)).send(body)

  it('promotes a user: 200 {user}, and the promotion applies to that user\'s very next request', async () => {
    const user = await makeUser()
    const session = (await login(app, user.email)).cookies
    await supertest(app).get('/api/users').set(withCookies(session)).expect(403)
    const res = await patch(user.id, { role: 'admin' })
    expect(res.status).toBe(200)
    expect(res.body.user).toMatchObject({ id: user.id, role: 'admin' })
    await supertest(app).get('/api/users').set(withCookies(session)).expect(200)
    expect((await me(app, session)).body.user.role).toBe('admin')

    await patch(user.id, { role: 'user' }).expect(200)
    await supertest(app).get('/api/users').set(withCookies(session)).expect(403)
  })

  it('renames a user', async () => {
    const user = await makeUser()
    const res = await patch(user.id, { name: 'Renamed' })
    expect(res.body.user).toMatchObject({ id: user.id, name: 'Renamed', role: 'user' })
    expect((await User.findByPk(user.id))?.name).toBe('Renamed')
  })

  it('an admin cannot demote itself (422 errors.role)', async () => {
    const res = await patch(adminId, { role: 'user' })
    expect(res.status).toBe(422)
    expect(Object.keys(res.body.errors)).toEqual(['role'])
    await supertest(app).get('/api/users').set(withCookies(admin)).expect(200)
  })

  it('an unknown or malformed id is 404; an unknown role or a bad name is 422', async () => {
    await patch(99_999_999, { role: 'admin' }).expect(404)
    await patch('abc', { role: 'admin' }).expect(404)
    await patch('4294967438', { role: 'admin' }).expect(404)
    const user = await makeUser()
    const role = await patch(user.id, { role: 'owner' })
    expect(role.status).toBe(422)
    expect(Object.keys(role.body.errors)).toEqual(['role'])
    expect(Object.keys((await patch(user.id, { name: 'a\nb' })).body.errors)).toEqual(['name'])
  })

  it('is for admins only', async () => {
    const user = await makeUser()
    const session = (await login(app, user.email)).cookies
    await patch(user.id, { role: 'admin' }, session).expect(403)
    await supertest(app).patch(`/api/users/${user.id}`).send({ role: 'admin' }).expect(401)
  })
})

describe('DELETE /api/users/:id/sessions (admin)', () => {
  let app: TestApp['app']
  let admin: Record<string, string>
  beforeAll(async () => {
    ;({ app } = await t.build())
    admin = (await login(app, (await makeUser({ role: 'admin' })).email)).cookies
  })

  it('signs the user out everywhere at once (204); other users stay signed in', async () => {
    const user = await makeUser()
    const sessions = [(await login(app, user.email)).cookies, (await login(app, user.email, undefined, true)).cookies]
    const bystander = (await login(app, (await makeUser()).email)).cookies
    await supertest(app).delete(`/api/users/${user.id}/sessions`).set(withCookies(admin)).expect(204)
    for (const session of sessions) expect((await me(app, session)).status).toBe(401)
    expect((await me(app, bystander)).status).toBe(200)
  })

  it('an unknown id is 404; a non-admin is 403', async () => {
    await supertest(app).delete('/api/users/99999999/sessions').set(withCookies(admin)).expect(404)
    const user = await makeUser()
    const session = (await login(app, user.email)).cookies
    await supertest(app).delete(`/api/users/${user.id}/sessions`).set(withCookies(session)).expect(403)
  })
})
