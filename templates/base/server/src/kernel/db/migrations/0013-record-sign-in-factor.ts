import { DataTypes } from 'sequelize'
import type { Migration } from './types.js'

/**
 * Each sign-in remembers the first factor that started it (`password`, or a layer's, such as one
 * passkey or one provider), so that removing that way to sign in ends the sign-ins it made.
 * Sessions from before this migration have none, and are ended only by the other events.
 */
export const up: Migration = async ({ context: queryInterface }) => {
  await queryInterface.addColumn('sessions', 'signedInWith', { type: DataTypes.STRING(100), allowNull: true })
}

export const down: Migration = async ({ context: queryInterface }) => {
  await queryInterface.removeColumn('sessions', 'signedInWith')
}
