import { randomUUID } from 'node:crypto'
import { QueryTypes } from 'sequelize'
import supertest from 'supertest'
import { beforeAll, describe, expect, it } from 'vitest'
import { User } from '../src/kernel/models/index.js'
import { listSql, sqlFilter } from '../src/kernel/services/user-list.js'
import { login, makeUser, uniqueEmail, useTestApps, withCookies, type TestApp } from './helpers/test-app.js'

const t = useTestApps()

describe('GET /api/users: sort and filter', () => {
  let app: TestApp['app']
  let admin: Record<string, string>
  // Every query is scoped by this tag in the search, so other files' users never interfere.
  const tag = `Sf${randomUUID().slice(0, 6)}`
  const people: Record<string, User> = {}

  beforeAll(async () => {
    ;({ app } = await t.build())
    admin = (await login(app, (await makeUser({ role: 'admin' })).email)).cookies
    const specs = [
      ['carol', 'admin', true, '2026-01-03'],
      ['alice', 'user', true, '2026-01-05'],
      ['bob', 'user', false, '2026-01-01'],
      ['dave', 'admin', false, '2026-01-04'],
      ['erin', 'user', true, '2026-01-02'],
    ] as const
    for (const [name, role, verified, created] of specs) {
      const user = await makeUser({ name: `${tag} ${name}`, email: uniqueEmail(`${name}-${tag.toLowerCase()}`), role, verified })
      await User.update({ createdAt: new Date(`${created}T12:00:00Z`) }, { where: { id: user.id } })
      people[name] = user
    }
  })

  const list = (query: Record<string, string | number>) =>
    supertest(app).get('/api/users').query({ search: tag, ...query }).set(withCookies(admin))
  const names = (res: supertest.Response) => (res.body.data.data as Array<{ name: string }>).map((row) => row.name.replace(`${tag} `, ''))

  it('sorts by id by default', async () => {
    expect(names(await list({}))).toEqual(['carol', 'alice', 'bob', 'dave', 'erin'])
  })

  it.each([
    ['name', ['alice', 'bob', 'carol', 'dave', 'erin']],
    ['-name', ['erin', 'dave', 'carol', 'bob', 'alice']],
    ['createdAt', ['bob', 'erin', 'carol', 'dave', 'alice']],
    ['-createdAt', ['alice', 'dave', 'carol', 'erin', 'bob']],
    ['-id', ['erin', 'dave', 'bob', 'alice', 'carol']],
  ])('sort=%s', async (sort, expected) => {
    expect(names(await list({ sort }))).toEqual(expected)
  })

  it('sorts by e-mail, and by several keys in order', async () => {
    expect(names(await list({ sort: 'email' }))).toEqual(['alice', 'bob', 'carol', 'dave', 'erin'])
    await User.update({ createdAt: new Date('2026-01-03T12:00:00Z') }, { where: { id: people.alice!.id } })
    try {
      expect(names(await list({ sort: '-createdAt,name' }))).toEqual(['dave', 'alice', 'carol', 'erin', 'bob'])
      expect(names(await list({ sort: '-createdAt,-name' }))).toEqual(['dave', 'carol', 'alice', 'erin', 'bob'])
    } finally {
      await User.update({ createdAt: new Date('2026-01-05T12:00:00Z') }, { where: { id: people.alice!.id } })
    }
  })

  it('pages through a sorted list without repeating or losing a row', async () => {
    const pages = await Promise.all([1, 2, 3].map((page) => list({ sort: '-name', size: 2, page })))
    expect(pages.flatMap(names)).toEqual(['erin', 'dave', 'carol', 'bob', 'alice'])
    expect(pages[2]!.body.data).toMatchObject({ total: 5, last_page: 3, from: 5, to: 5 })
  })

  it('filters by role and by verified, alone and together, with the total of the filtered set', async () => {
    const admins = await list({ 'filter[role]': 'admin', sort: 'name' })
    expect(names(admins)).toEqual(['carol', 'dave'])
    expect(admins.body.data.total).toBe(2)
    expect(names(await list({ 'filter[verified]': 'false', sort: 'name' }))).toEqual(['bob', 'dave'])
    expect(names(await list({ 'filter[verified]': 'true', 'filter[role]': 'user', sort: 'name' }))).toEqual(['alice', 'erin'])
    // An empty filter value means no filter, as the table sends it after a reset.
    expect(names(await list({ 'filter[role]': '', sort: 'name' }))).toHaveLength(5)
  })

  it.each([
    [{ sort: 'password' }, 'sort'],
    [{ sort: 'name,-name' }, 'sort'],
    [{ sort: '--name' }, 'sort'],
    [{ 'filter[role]': 'owner' }, 'filter.role'],
    [{ 'filter[verified]': 'yes' }, 'filter.verified'],
  ])('%o is a 422 on %s', async (query, field) => {
    const res = await list(query as Record<string, string>)
    expect(res.status).toBe(422)
    expect(Object.keys(res.body.errors)).toEqual([field])
  })

  it('sorted and filtered pages walk a users list index (migration 0002-create-users) in order, not the table', async () => {
    const sequelize = await t.database()
    const dialect = sequelize.getDialect()
    if (dialect === 'postgres') return // its planner prefers the table at this size; the indexes are checked on SQLite and MySQL
    const roleId = (await sqlFilter({ role: 'user' })).roleId!
    const cases: Array<[Parameters<typeof listSql>[0], string]> = [
      [{ search: '', filter: {}, sort: [{ key: 'name', descending: false }] }, 'users_name_filters'],
      [{ search: '', filter: {}, sort: [{ key: 'createdAt', descending: true }] }, 'users_created_filters'],
      [{ search: '', filter: { verified: true }, sort: [{ key: 'email', descending: true }] }, 'users_email_filters'],
      [{ search: '', filter: { roleId }, sort: [] }, 'users_role_id_filters'],
      [{ search: '', filter: { roleId, verified: true }, sort: [{ key: 'name', descending: true }] }, 'users_role_name_filters'],
    ]
    for (const [query, index] of cases) {
      const sql = listSql(query, dialect, { limit: 10, offset: 10 })
      const inner = sql.page.slice(sql.page.indexOf('(SELECT id FROM users') + 1, sql.page.indexOf(') page'))
      const bind = sql.bind
      if (dialect === 'sqlite') {
        const plan = await sequelize.query<{ detail: string }>(`EXPLAIN QUERY PLAN ${inner}`, { bind, type: QueryTypes.SELECT })
        const steps = plan.map((step) => step.detail).join(' | ')
        expect(steps, inner).toContain(`COVERING INDEX ${index}`)
        expect(steps, inner).not.toContain('TEMP B-TREE')
      } else {
        const plan = await sequelize.query<{ key: string | null; Extra: string }>(`EXPLAIN ${inner}`, { bind, type: QueryTypes.SELECT })
        expect(plan.map((step) => step.key), inner).toContain(index)
        expect(plan.map((step) => step.Extra).join(' | '), inner).not.toContain('filesort')
      }
    }
  })
})
