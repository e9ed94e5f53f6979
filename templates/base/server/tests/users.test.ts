import { randomUUID } from 'node:crypto'
import supertest from 'supertest'
import { beforeAll, describe, expect, it } from 'vitest'
import { RefreshToken, User } from '../src/kernel/models/index.js'
import { login, makeUser, uniqueEmail, useTestApps, withCookies, type TestApp } from './helpers/test-app.js'

const t = useTestApps()

describe('GET /api/users (admin)', () => {
  let app: TestApp['app']
  let admin: Record<string, string>
  const marker = `Zq${randomUUID().slice(0, 6)}`
  const created: User[] = []

  beforeAll(async () => {
    ;({ app } = await t.build())
    const owner = await makeUser({ role: 'admin' })
    admin = (await login(app, owner.email)).cookies
    for (let i = 1; i <= 12; i++) {
      created.push(await makeUser({ name: `${marker} member ${String(i).padStart(2, '0')}`, email: uniqueEmail(`list${i}`) }))
    }
    created.push(await makeUser({ name: 'Someone Else', email: `${marker.toLowerCase()}-mail@example.test` }))
  })

  const list = (query: Record<string, string | number>) => supertest(app).get('/api/users').query(query).set(withCookies(admin))

  it('returns the paginated object with the default page and size', async () => {
    const res = await list({})
    expect(res.status).toBe(200)
    expect(Object.keys(res.body)).toEqual(['data'])
    expect(Object.keys(res.body.data).sort()).toEqual(['current_page', 'data', 'from', 'last_page', 'path', 'per_page', 'to', 'total'])
    expect(res.body.data).toMatchObject({ current_page: 1, per_page: 10, path: '/api/users', from: 1 })
    expect(res.body.data.data.length).toBeLessThanOrEqual(10)
    expect(res.body.data.data[0]).not.toHaveProperty('password')
  })

  it('searches name or e-mail case-insensitively and pages through the matches', async () => {
    const page1 = await list({ search: marker.toUpperCase(), size: 5 })
    expect(page1.body.data).toMatchObject({ total: 13, per_page: 5, last_page: 3, current_page: 1, from: 1, to: 5 })
    const page3 = await list({ search: marker.toLowerCase(), size: 5, page: 3 })
    expect(page3.body.data).toMatchObject({ current_page: 3, from: 11, to: 13 })
    expect(page3.body.data.data).toHaveLength(3)
    const byEmail = await list({ search: `${marker.toLowerCase()}-MAIL` })
    expect(byEmail.body.data.data.map((u: { name: string }) => u.name)).toEqual(['Someone Else'])
    const ids = [...page1.body.data.data, ...(await list({ search: marker, size: 5, page: 2 })).body.data.data, ...page3.body.data.data].map(
      (u: { id: number }) => u.id,
    )
    expect(new Set(ids).size).toBe(13)
  })

  it('matches names and e-mails beyond ASCII case-insensitively (SQLite LOWER() folds ASCII only)', async () => {
    const tag = randomUUID().slice(0, 6)
    const user = await makeUser({ name: `Élodie Ørsted ${tag}`, email: uniqueEmail(`zoë${tag}`) })
    for (const search of [`Élodie Ørsted ${tag}`, `élodie ørsted ${tag}`, `ÉLODIE ØRSTED ${tag.toUpperCase()}`, `ZOË${tag.toUpperCase()}`]) {
      const res = await list({ search })
      expect(res.status, search).toBe(200)
      expect(res.body.data.data.map((u: { id: number }) => u.id), search).toEqual([user.id])
      expect(res.body.data.total, search).toBe(1)
    }
    expect((await list({ search: `Ørsted ${tag}x` })).body.data.total).toBe(0)
  })

  it('treats LIKE wildcards in the search as text', async () => {
    // `member 0%` and `member 0_` would match "member 01" … as patterns; as text they match nothing.
    for (const search of [`${marker} member 0%`, `${marker} member 0_`, `${marker}%member`]) {
      const res = await list({ search })
      expect(res.status, search).toBe(200)
      expect(res.body.data.total, search).toBe(0)
    }
    expect((await list({ search: `${marker} member 0` })).body.data.total).toBeGreaterThan(0)
  })

  it('returns an empty page past the end with from/to null', async () => {
    const res = await list({ search: marker, page: 99 })
    expect(res.body.data).toMatchObject({ data: [], from: null, to: null, total: 13, last_page: 2, current_page: 99 })
  })

  it.each([
    [{ size: 0 }, 'size'],
    [{ size: 101 }, 'size'],
    [{ page: 0 }, 'page'],
    [{ page: 'abc' }, 'page'],
    [{ size: '2.5' }, 'size'],
    [{ search: 'a\0b' }, 'search'],
  ])('refuses %o with 422 errors.%s', async (query, field) => {
    const res = await list(query)
    expect(res.status).toBe(422)
    expect(res.body.errors[field]).toBeDefined()
  })

  it('accepts size 1 and 100', async () => {
    expect((await list({ size: 1 })).body.data.per_page).toBe(1)
    expect((await list({ size: 100 })).body.data.per_page).toBe(100)
  })
})

describe('DELETE /api/users (admin)', () => {
  let app: TestApp['app']
  let adminUser: User
  let admin: Record<string, string>
  beforeAll(async () => {
    ;({ app } = await t.build())
    adminUser = await makeUser({ role: 'admin' })
    admin = (await login(app, adminUser.email)).cookies
  })

  it('deletes the listed users, ends their sessions and returns {deleted}', async () => {
    const a = await makeUser()
    const b = await makeUser()
    const victim = await login(app, a.email)
    const res = await supertest(app).delete('/api/users').set(withCookies(admin)).send({ ids: [a.id, String(b.id), 99999999] })
    expect(res.status).toBe(200)
    expect(res.body).toEqual({ deleted: 2 })
    expect(await User.count({ where: { id: [a.id, b.id] } })).toBe(0)
    expect(await RefreshToken.count({ where: { revoked: false, userId: a.id } })).toBe(0)
    await supertest(app).post('/api/auth/refresh-token').set(withCookies(victim.cookies)).expect(401)
  })

  it('refuses to delete the admin itself (422) and deletes nothing', async () => {
    const other = await makeUser()
    const res = await supertest(app).delete('/api/users').set(withCookies(admin)).send({ ids: [other.id, adminUser.id] })
    expect(res.status).toBe(422)
    expect(res.body.errors.ids).toBeDefined()
    expect(await User.count({ where: { id: [other.id, adminUser.id] } })).toBe(2)
  })

  it.each([[{}], [{ ids: [] }], [{ ids: 'all' }], [{ ids: [0] }], [{ ids: [-1] }], [{ ids: ['1; DROP TABLE users'] }], [{ ids: [1.5] }]])(
    'validates %o',
    async (body) => {
      const res = await supertest(app).delete('/api/users').set(withCookies(admin)).send(body)
      expect(res.status).toBe(422)
      expect(res.body.errors.ids ?? res.body.errors['ids.0']).toBeDefined()
    },
  )

  it('is for admins only', async () => {
    const user = await makeUser()
    const session = await login(app, user.email)
    await supertest(app).delete('/api/users').set(withCookies(session.cookies)).send({ ids: [adminUser.id] }).expect(403)
    await supertest(app).delete('/api/users').send({ ids: [adminUser.id] }).expect(401)
  })
})
