import { QueryTypes, type QueryInterface } from 'sequelize'
import type { FeatureMigrations, Migration } from '../../kernel/index.js'
import * as createOAuthAccounts from './migrations/0001-create-oauth-accounts.js'

const REQUIRED = '`password` TEXT NOT NULL'
const OPTIONAL = '`password` TEXT'

/**
 * The layer's migrations, by the names the database records them under.
 *
 * oauth-0001 as released (0.2.0, never edited since) drops users.password's NOT NULL and, on
 * SQLite, refuses a column that has none. A layer added before this one may have dropped it
 * already (sign-in by e-mail does): there the released migration runs with the NOT NULL declared
 * back for the moment it takes to drop it again. Declaring it checks no row, and a failure puts
 * the column back as it was.
 */
export const migrations: FeatureMigrations = [
  { name: 'oauth-0001-create-oauth-accounts', up: whereOptional(createOAuthAccounts.up), down: createOAuthAccounts.down },
]

function whereOptional(up: Migration): Migration {
  return async (params) => {
    const queryInterface = params.context
    if (queryInterface.sequelize.getDialect() !== 'sqlite' || (await usersTable(queryInterface)).includes(REQUIRED)) return up(params)
    await declarePassword(queryInterface, OPTIONAL, REQUIRED)
    try {
      await up(params)
    } catch (error) {
      if ((await usersTable(queryInterface)).includes(REQUIRED)) await declarePassword(queryInterface, REQUIRED, OPTIONAL)
      throw error
    }
  }
}

async function usersTable(queryInterface: QueryInterface): Promise<string> {
  const [row] = await queryInterface.sequelize.query<{ sql: string }>("SELECT sql FROM sqlite_master WHERE type = 'table' AND name = 'users'", { type: QueryTypes.SELECT })
  return row?.sql ?? ''
}

/** The stored-schema edit the released migration makes (https://www.sqlite.org/lang_altertable.html). */
async function declarePassword(queryInterface: QueryInterface, from: string, to: string): Promise<void> {
  const sequelize = queryInterface.sequelize
  await sequelize.transaction(async (transaction) => {
    const [row] = await sequelize.query<{ sql: string }>("SELECT sql FROM sqlite_master WHERE type = 'table' AND name = 'users'", { type: QueryTypes.SELECT, transaction })
    if (!row?.sql.includes(from)) throw new Error(`users.password is not declared as ${from}: ${row?.sql}`)
    const [version] = await sequelize.query<{ schema_version: number }>('PRAGMA schema_version', { type: QueryTypes.SELECT, transaction })
    await sequelize.query('PRAGMA writable_schema = ON', { transaction })
    await sequelize.query("UPDATE sqlite_master SET sql = $sql WHERE type = 'table' AND name = 'users'", { bind: { sql: row.sql.replace(from, to) }, transaction })
    await sequelize.query(`PRAGMA schema_version = ${version!.schema_version + 1}`, { transaction })
    await sequelize.query('PRAGMA writable_schema = OFF', { transaction })
  })
}
