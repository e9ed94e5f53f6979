import { DataTypes } from 'sequelize'
import type { Migration } from './types.js'

/**
 * An admin's suspension of an account: since when, until when (null: until lifted) and why.
 * Sign-in is refused while it lasts; one past its end is over without anyone lifting it. The
 * index answers the users list's filter of suspended accounts.
 */
export const up: Migration = async ({ context: queryInterface }) => {
  await queryInterface.addColumn('users', 'suspendedAt', { type: DataTypes.DATE, allowNull: true, defaultValue: null })
  await queryInterface.addColumn('users', 'suspendedUntil', { type: DataTypes.DATE, allowNull: true, defaultValue: null })
  await queryInterface.addColumn('users', 'suspensionReason', { type: DataTypes.STRING(500), allowNull: true, defaultValue: null })
  await queryInterface.addIndex('users', ['suspendedAt'], { name: 'users_suspended' })
}

export const down: Migration = async ({ context: queryInterface }) => {
  await queryInterface.removeIndex('users', 'users_suspended')
  for (const column of ['suspensionReason', 'suspendedUntil', 'suspendedAt']) await queryInterface.removeColumn('users', column)
}
