import { DataTypes } from 'sequelize'
import type { Migration } from './types.js'

/**
 * Verification and reset links remember the address they were mailed to, and work only while it
 * is still the account's: a link read from a mailbox the owner has since left must not set the
 * account's password. Links mailed before this migration have no address and stop working; their
 * owners ask for a new one.
 */
const TABLES = ['email_verification_tokens', 'password_reset_tokens']

export const up: Migration = async ({ context: queryInterface }) => {
  for (const table of TABLES) await queryInterface.addColumn(table, 'email', { type: DataTypes.STRING(255), allowNull: true })
}

export const down: Migration = async ({ context: queryInterface }) => {
  for (const table of TABLES) await queryInterface.removeColumn(table, 'email')
}
