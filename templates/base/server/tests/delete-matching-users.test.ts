import { randomUUID } from 'node:crypto'
import supertest from 'supertest'
import { beforeAll, describe, expect, it } from 'vitest'
import { Session, User } from '../src/kernel/models/index.js'
import { me } from './helpers/requests.js'
import { login, makeUser, uniqueEmail, useTestApps, withCookies, type TestApp } from './helpers/test-app.js'

const t = useTestApps()

describe('DELETE /api/users {all: true}', () => {
  let app: TestApp['app']
  let owner: User
  let admin: Record<string, string>
  beforeAll(async () => {
    ;({ app } = await t.build())
    owner = await makeUser({ role: 'admin' })
    admin = (await login(app, owner.email)).cookies
  })

  const remove = (body: object) => supertest(app).delete('/api/users').set(withCookies(admin)).send(body)
  const group = async (count: number, options: { role?: 'admin' | 'user'; verified?: boolean } = {}) => {
    const tag = `Dm${randomUUID().slice(0, 6)}`
    const users: User[] = []
    for (let i = 0; i < count; i++) users.push(await makeUser({ name: `${tag} ${i}`, email: uniqueEmail(`dm${i}`), ...options }))
    return { tag, users }
  }
  const remaining = (users: User[]) => User.count({ where: { id: users.map((user) => user.id) } })

  it('deletes every user the search matches and answers the count', async () => {
    const { tag, users } = await group(7)
    const bystander = await makeUser({ name: 'Not In The Set' })
    const res = await remove({ all: true, search: tag.toUpperCase() })
    expect(res.status).toBe(200)
    expect(res.body).toEqual({ deleted: 7 })
    expect(await remaining(users)).toBe(0)
    expect(await User.count({ where: { id: bystander.id } })).toBe(1)
  })

  it('keeps the except ids, and honours the filters', async () => {
    const { tag, users } = await group(4, { verified: false })
    const verified = await makeUser({ name: `${tag} verified`, verified: true })
    const res = await remove({ all: true, search: tag, filter: { verified: false }, except: [users[0]!.id] })
    expect(res.body).toEqual({ deleted: 3 })
    expect(await remaining(users)).toBe(1)
    expect(await User.count({ where: { id: [users[0]!.id, verified.id] } })).toBe(2)
  })

  it('never deletes the caller, even when it matches', async () => {
    const tag = `Dm${randomUUID().slice(0, 6)}`
    const caller = await makeUser({ role: 'admin', name: `${tag} me` })
    const mine = (await login(app, caller.email)).cookies
    const other = await makeUser({ role: 'admin', name: `${tag} other` })
    const res = await supertest(app).delete('/api/users').set(withCookies(mine)).send({ all: true, search: tag, filter: { role: 'admin' } })
    expect(res.body).toEqual({ deleted: 1 })
    expect(await User.count({ where: { id: caller.id } })).toBe(1)
    expect(await User.count({ where: { id: other.id } })).toBe(0)
    expect((await me(app, mine)).status).toBe(200)
  })

  it('ends the deleted users\' sessions at once', async () => {
    const { tag, users } = await group(2)
    const session = (await login(app, users[0]!.email)).cookies
    expect((await me(app, session)).status).toBe(200)
    await remove({ all: true, search: tag }).expect(200)
    expect((await me(app, session)).status).toBe(401)
    expect(await Session.count({ where: { userId: users[0]!.id, revokedAt: null } })).toBe(0)
  })

  it('works through more users than one batch', async () => {
    const tag = `Dm${randomUUID().slice(0, 6)}`
    const roleId = (await User.findByPk(owner.id))!.roleId
    const now = new Date()
    await User.bulkCreate(
      Array.from({ length: 1203 }, (_, i) => ({ name: `${tag} bulk ${i}`, email: uniqueEmail(`bulk${i}`), password: 'x', roleId, createdAt: now, updatedAt: now })),
    )
    const res = await remove({ all: true, search: tag, except: [] })
    expect(res.body).toEqual({ deleted: 1203 })
  })

  it.each([
    [{ all: false }, 'all'],
    [{ all: true, filter: { role: 'owner' } }, 'filter.role'],
    [{ all: true, except: ['x'] }, 'except.0'],
    [{ all: true, search: 'a'.repeat(256) }, 'search'],
  ])('%o is a 422 on %s and deletes nothing', async (body, field) => {
    const { tag, users } = await group(2)
    const res = await remove({ search: tag, ...body })
    expect(res.status).toBe(422)
    expect(Object.keys(res.body.errors)).toEqual([field])
    expect(await remaining(users)).toBe(2)
  })

  it('needs the admin role', async () => {
    const { tag, users } = await group(1)
    const plain = (await login(app, (await makeUser()).email)).cookies
    await supertest(app).delete('/api/users').set(withCookies(plain)).send({ all: true, search: tag }).expect(403)
    expect(await remaining(users)).toBe(1)
  })
})
