import { randomUUID } from 'node:crypto'
import { QueryTypes } from 'sequelize'
import { describe, expect, it } from 'vitest'
import { User } from '../src/kernel/models/index.js'
import { UserCounts } from '../src/kernel/services/user-counts.js'
import { findUserPage, listSql } from '../src/kernel/services/user-list.js'
import { makeUser, uniqueEmail, useTestApps } from './helpers/test-app.js'

const t = useTestApps()

// A Buffer on MySQL, where the column is VARBINARY.
const searchOf = async (id: number) => String((await User.findByPk(id, { attributes: ['search'], raw: true }))!.search)

describe('users.search, the folded column the users list searches', () => {
  it('follows the name and e-mail on create and on update', async () => {
    await t.database()
    const user = await makeUser({ name: 'ÉLODIE Ørsted', email: uniqueEmail('ZOË') })
    expect(await searchOf(user.id)).toBe(`élodie ørsted\n${user.email.toLowerCase()}`)
    await user.update({ name: 'Ångström' })
    expect(await searchOf(user.id)).toBe(`ångström\n${user.email.toLowerCase()}`)
  })

  it('the list counts read the narrowest index, not the table', async () => {
    const sequelize = await t.database()
    const dialect = sequelize.getDialect()
    const term = 'élodie'
    if (dialect === 'postgres') {
      // PostgreSQL counts through its visibility map, not a chosen index; what matters is that a
      // search can use the trigram index, which the plan shows once reading the table is priced out.
      const { count, bind } = listSql({ search: term, filter: {}, sort: [] }, dialect)
      const plan = await sequelize.transaction(async (transaction) => {
        await sequelize.query('SET LOCAL enable_seqscan = off', { transaction })
        return sequelize.query<{ 'QUERY PLAN': string }>(`EXPLAIN ${count}`, { bind, type: QueryTypes.SELECT, transaction })
      })
      expect(plan.map((step) => step['QUERY PLAN']).join(' | '), count).toContain('Bitmap Index Scan on users_search')
      return
    }
    // Counting every user may read either of the narrowest indexes: the ids', or the suspensions'
    // (mostly nulls, which SQLite finds narrower still).
    for (const [query, indexes] of [
      [listSql({ search: term, filter: {}, sort: [] }, dialect), ['users_search']],
      [listSql({ search: '', filter: {}, sort: [] }, dialect), ['users_id', 'users_suspended']],
    ] as const) {
      const { count: sql, bind } = query
      if (dialect === 'sqlite') {
        const plan = await sequelize.query<{ detail: string }>(`EXPLAIN QUERY PLAN ${sql}`, { bind, type: QueryTypes.SELECT })
        const used = /USING COVERING INDEX (\w+)/.exec(plan.map((step) => step.detail).join(' | '))?.[1]
        expect(indexes, sql).toContain(used)
      } else {
        const plan = await sequelize.query<{ key: string | null; Extra: string }>(`EXPLAIN ${sql}`, { bind, type: QueryTypes.SELECT })
        expect(indexes, sql).toContain(plan[0]?.key)
        expect(plan[0]?.Extra, sql).toContain('Using index')
      }
    }
  })

  it('finds LIKE wildcards and backslashes as themselves', async () => {
    await t.database()
    const tag = randomUUID().slice(0, 8)
    const literal = await makeUser({ name: `100%_off\\${tag}` })
    await makeUser({ name: `100xxoff\\${tag}` })
    const { rows, total } = await findUserPage({ search: `100%_off\\${tag}`, filter: {}, sort: [] }, 1, 10, new UserCounts({ ttlMs: 5000, max: 10 }))
    expect({ ids: rows.map((row) => row.id), total }).toEqual({ ids: [literal.id], total: 1 })
  })
})
