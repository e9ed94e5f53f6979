import { QueryTypes, type QueryInterface, type Transaction } from 'sequelize'

/** users.password as 0002-create-users declares it on SQLite, and without its NOT NULL. */
const REQUIRED = '`password` TEXT NOT NULL'
const OPTIONAL = '`password` TEXT'

/**
 * Whether users.password is NOT NULL in SQLite's stored schema: what a layer checks before a
 * released migration of its own that drops that NOT NULL itself, and refuses a column without it.
 */
export async function passwordRequiredInSqlite(queryInterface: QueryInterface): Promise<boolean> {
  return (await usersTableSql(queryInterface)).includes(REQUIRED)
}

/**
 * Accounts may go without a password (sign-in by e-mail, by a provider): drops users.password's
 * NOT NULL where it is still there, a layer before may have dropped it. SQLite cannot alter a
 * column, and rebuilding `users` would drop and recreate its indexes and every foreign key to it;
 * dropping a NOT NULL is one of the changes SQLite documents as safe to make in the stored schema
 * (https://www.sqlite.org/lang_altertable.html, "Making Other Kinds Of Table Schema Changes").
 */
export async function allowNoPassword(queryInterface: QueryInterface): Promise<void> {
  const sequelize = queryInterface.sequelize
  const dialect = sequelize.getDialect()
  if (dialect === 'postgres') return void (await sequelize.query('ALTER TABLE users ALTER COLUMN password DROP NOT NULL'))
  if (dialect === 'mysql' || dialect === 'mariadb') return void (await sequelize.query('ALTER TABLE users MODIFY password TEXT NULL'))
  await declarePasswordInSqlite(queryInterface, REQUIRED, OPTIONAL)
}

/**
 * Declares users.password NOT NULL again in SQLite's stored schema, checking no row: only for the
 * moment a released migration that expects it takes to drop it again.
 */
export const requirePasswordInSqlite = (queryInterface: QueryInterface): Promise<void> => declarePasswordInSqlite(queryInterface, OPTIONAL, REQUIRED)

async function usersTableSql(queryInterface: QueryInterface, transaction?: Transaction): Promise<string> {
  const [row] = await queryInterface.sequelize.query<{ sql: string }>("SELECT sql FROM sqlite_master WHERE type = 'table' AND name = 'users'", { type: QueryTypes.SELECT, transaction })
  return row?.sql ?? ''
}

/** The stored-schema edit, in one transaction with the schema version bumped; nothing to do when `from` is not there. */
async function declarePasswordInSqlite(queryInterface: QueryInterface, from: string, to: string): Promise<void> {
  const sequelize = queryInterface.sequelize
  await sequelize.transaction(async (transaction) => {
    const sql = await usersTableSql(queryInterface, transaction)
    if (!sql.includes(from)) return
    const [version] = await sequelize.query<{ schema_version: number }>('PRAGMA schema_version', { type: QueryTypes.SELECT, transaction })
    await sequelize.query('PRAGMA writable_schema = ON', { transaction })
    await sequelize.query("UPDATE sqlite_master SET sql = $sql WHERE type = 'table' AND name = 'users'", { bind: { sql: sql.replace(from, to) }, transaction })
    await sequelize.query(`PRAGMA schema_version = ${version!.schema_version + 1}`, { transaction })
    await sequelize.query('PRAGMA writable_schema = OFF', { transaction })
  })
}
