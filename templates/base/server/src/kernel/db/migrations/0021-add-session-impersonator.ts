import { DataTypes } from 'sequelize'
import type { Migration } from './types.js'

/**
 * A session an admin started as another user (impersonation): the admin, and the admin's own
 * session that stopping returns to. Null on every other session.
 */
export const up: Migration = async ({ context: queryInterface }) => {
  await queryInterface.addColumn('sessions', 'impersonatorId', { type: DataTypes.INTEGER, allowNull: true, defaultValue: null })
  await queryInterface.addColumn('sessions', 'impersonatorSessionId', { type: DataTypes.STRING(64), allowNull: true, defaultValue: null })
}

export const down: Migration = async ({ context: queryInterface }) => {
  for (const column of ['impersonatorSessionId', 'impersonatorId']) await queryInterface.removeColumn('sessions', column)
}
