import type { QueryInterface } from 'sequelize'
import type { MigrationFn } from 'umzug'

export type Migration = MigrationFn<QueryInterface>

/** utf8mb4 on MySQL so names and e-mails hold any character; SQLite ignores it. */
export const tableOptions = { charset: 'utf8mb4', collate: 'utf8mb4_unicode_ci' }

// What a migration of a layer whose accounts may have no password uses, at this stable path.
export { allowNoPassword, passwordRequiredInSqlite, requirePasswordInSqlite } from './users-password.js'
