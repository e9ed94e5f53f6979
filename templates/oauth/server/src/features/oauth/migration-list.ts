import { allowNoPassword, type FeatureMigrations, type Migration, passwordRequiredInSqlite, requirePasswordInSqlite } from '../../kernel/index.js'
import * as createOAuthAccounts from './migrations/0001-create-oauth-accounts.js'

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
    if (queryInterface.sequelize.getDialect() !== 'sqlite' || (await passwordRequiredInSqlite(queryInterface))) return up(params)
    await requirePasswordInSqlite(queryInterface)
    try {
      await up(params)
    } catch (error) {
      await allowNoPassword(queryInterface)
      throw error
    }
  }
}
