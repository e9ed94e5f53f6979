import { DataTypes } from 'sequelize'
import type { Migration } from '../../../db/migrations/types.js'

/** Clients that registered themselves (RFC 7591, with OAUTH_PROVIDER_REGISTRATION=open), told apart from the admins'. */
export const up: Migration = async ({ context: queryInterface }) => {
  await queryInterface.addColumn('oauth_clients', 'dynamic', { type: DataTypes.BOOLEAN, allowNull: false, defaultValue: false })
}

export const down: Migration = async ({ context: queryInterface }) => {
  await queryInterface.removeColumn('oauth_clients', 'dynamic')
}
