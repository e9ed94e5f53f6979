import { DataTypes } from 'sequelize'
import type { Migration } from './types.js'

/** The admin behind an event written while that admin was signed in as the account's user (impersonation). */
export const up: Migration = async ({ context: queryInterface }) => {
  await queryInterface.addColumn('security_events', 'impersonatorId', { type: DataTypes.INTEGER, allowNull: true, defaultValue: null })
}

export const down: Migration = async ({ context: queryInterface }) => {
  await queryInterface.removeColumn('security_events', 'impersonatorId')
}
