import { DataTypes } from 'sequelize'
import type { Migration } from './types.js'

/**
 * Step-up: a session confirmed by its person (a password, a code, a passkey, a provider, or the
 * sign-in itself) may do sensitive things until `confirmedUntil`; null is unconfirmed.
 */
export const up: Migration = async ({ context: queryInterface }) => {
  await queryInterface.addColumn('sessions', 'confirmedUntil', { type: DataTypes.DATE, allowNull: true })
}

export const down: Migration = async ({ context: queryInterface }) => {
  await queryInterface.removeColumn('sessions', 'confirmedUntil')
}
