import { randomBytes } from 'node:crypto'
import supertest from 'supertest'
import { beforeAll, describe, expect, it } from 'vitest'
import { sql } from '../src/kernel/db/sql.js'
import { runDatabaseUrl } from './helpers/database.js'
import { runScript, testSecrets } from './helpers/processes.js'
import { login, makeUser, useTestApps, withCookies, type TestApp } from './helpers/test-app.js'

const t = useTestApps()

/** Users written with plain SQL, as an import or a seed script would: no model, no search text. */
async function insertWithSql(name: string, email: string, search?: string): Promise<void> {
  const sequelize = await t.database()
  const dialect = sequelize.getDialect()
  // Each database's own literal for a UTC time (SQLite's as Sequelize writes it; MySQL takes no offset).
  const now = new Date().toISOString().replace('T', ' ').replace('Z', dialect === 'mysql' ? '' : ' +00:00')
  const columns = ['name', 'email', 'password', '"createdAt"', '"updatedAt"', ...(search === undefined ? [] : ['search'])]
  const values = [name, email, 'not a bcrypt hash: this user cannot log in', now, now, ...(search === undefined ? [] : [search])]
  await sequelize.query(sql(`INSERT INTO users (${columns.join(', ')}) VALUES (${values.map((_, i) => `$${i + 1}`).join(', ')})`)(sequelize), { bind: values })
}

describe('users the app did not write', () => {
  let app: TestApp['app']
  let admin: Record<string, string>
  const found = async (term: string) => {
    const res = await supertest(app).get('/api/users').query({ search: term }).set(withCookies(admin))
    expect(res.status).toBe(200)
    return (res.body.data.data as { email: string }[]).map((user) => user.email)
  }

  beforeAll(async () => {
    ;({ app } = await t.build())
    admin = (await login(app, (await makeUser({ role: 'admin' })).email)).cookies
  })

  it('a user inserted with plain SQL is found by name and by e-mail: the database fills the search text', async () => {
    const tag = randomBytes(4).toString('hex')
    const email = `imported-${tag}@example.test`
    await insertWithSql(`Imported Person ${tag.toUpperCase()}`, email)
    expect(await found(`person ${tag}`)).toEqual([email])
    expect(await found(`IMPORTED-${tag}@`)).toEqual([email])
  })

  it('db:refill-search refolds every row as the app does: a row changed behind its back is found again', async () => {
    const tag = randomBytes(4).toString('hex')
    const email = `seeded-${tag}@example.test`
    await insertWithSql(`Zoë Ørsted ${tag}`, email, 'stale text')
    expect(await found(`zoë ørsted ${tag}`)).toEqual([])

    const refill = await runScript('server/src/cli/refill-search.ts', [], { ...testSecrets(), DATABASE_URL: runDatabaseUrl() }, 60_000)
    expect(refill.stderr).toBe('')
    expect(refill.code).toBe(0)
    expect(refill.stdout).toMatch(/^Search text refolded for [1-9]\d* of \d+ users\.\n$/)
    expect(await found(`ZOË ØRSTED ${tag}`)).toEqual([email])

    // Nothing left to do: a second run writes nothing.
    const again = await runScript('server/src/cli/refill-search.ts', [], { ...testSecrets(), DATABASE_URL: runDatabaseUrl() }, 60_000)
    expect(again.stdout).toMatch(/^Search text refolded for 0 of \d+ users\.\n$/)
  })
})
