import { expect, it } from 'vitest'
import { features } from '../src/features/index.js'
import { connectDatabase, createSequelize } from '../src/kernel/db/database.js'
import { createMigrator } from '../src/kernel/db/migrator.js'
import { allowNoPassword } from '../src/kernel/db/migrations/users-password.js'
import { scratchDatabase } from './helpers/processes.js'

const OAUTH_0001 = 'oauth-0001-create-oauth-accounts'

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

    // What a layer that lets accounts go without a password (sign-in by e-mail) does to users.password.
    await allowNoPassword(sequelize.getQueryInterface())
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
