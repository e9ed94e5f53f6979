import { QueryTypes, type Sequelize } from 'sequelize'
import { expect, it } from 'vitest'
import { features } from '../src/features/index.js'
import { connectDatabase, createSequelize } from '../src/kernel/db/database.js'
import { createMigrator } from '../src/kernel/db/migrator.js'
import { scratchDatabase } from './helpers/processes.js'

const OAUTH_0001 = 'oauth-0001-create-oauth-accounts'

/** What a layer that lets accounts go without a password (sign-in by e-mail) does to users.password. */
async function dropPasswordNotNull(sequelize: Sequelize): Promise<void> {
  const dialect = sequelize.getDialect()
  if (dialect === 'postgres') return void (await sequelize.query('ALTER TABLE users ALTER COLUMN password DROP NOT NULL'))
  if (dialect !== 'sqlite') return void (await sequelize.query('ALTER TABLE users MODIFY password TEXT NULL'))
  const [row] = await sequelize.query<{ sql: string }>("SELECT sql FROM sqlite_master WHERE type = 'table' AND name = 'users'", { type: QueryTypes.SELECT })
  const [version] = await sequelize.query<{ schema_version: number }>('PRAGMA schema_version', { type: QueryTypes.SELECT })
  await sequelize.query('PRAGMA writable_schema = ON')
  await sequelize.query("UPDATE sqlite_master SET sql = $sql WHERE type = 'table' AND name = 'users'", { bind: { sql: row!.sql.replace('`password` TEXT NOT NULL', '`password` TEXT') } })
  await sequelize.query(`PRAGMA schema_version = ${version!.schema_version + 1}`)
  await sequelize.query('PRAGMA writable_schema = OFF')
}

// `add oauth` to an app whose sign-in by e-mail already made passwords optional: the released
// oauth-0001 expects a NOT NULL to drop.
it('oauth-0001 runs where another layer already made users.password optional', async () => {
  const scratch = await scratchDatabase()
  const sequelize = createSequelize(scratch.url)
  try {
    await connectDatabase(sequelize)
    const migrator = createMigrator(sequelize, features)
    await migrator.up()
    await migrator.down({ to: OAUTH_0001 })
    expect((await sequelize.getQueryInterface().describeTable('users')).password!.allowNull).toBe(false)

    await dropPasswordNotNull(sequelize)
    await migrator.up()

    expect(await migrator.pending()).toEqual([])
    expect((await migrator.executed()).map((m) => m.name)).toContain(OAUTH_0001)
    expect((await sequelize.getQueryInterface().describeTable('users')).password!.allowNull).toBe(true)
    expect(await sequelize.getQueryInterface().describeTable('oauth_accounts')).toHaveProperty('subject')
  } finally {
    await sequelize.close()
    await scratch.drop()
  }
})
