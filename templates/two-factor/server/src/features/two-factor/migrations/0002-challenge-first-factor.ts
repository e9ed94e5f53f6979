import { DataTypes } from 'sequelize'
import type { Migration } from '../../../db/migrations/types.js'

/**
 * A challenge remembers the first factor that led to it (`password`, `provider:<name>`), so the
 * session it starts ends when that way to sign in is removed. Challenges from before last 5
 * minutes at most; theirs start sessions recorded as a password's.
 */
export const up: Migration = async ({ context: queryInterface }) => {
  await queryInterface.addColumn('two_factor_challenges', 'factor', { type: DataTypes.STRING(100), allowNull: false, defaultValue: 'password' })
}

export const down: Migration = async ({ context: queryInterface }) => {
  await queryInterface.removeColumn('two_factor_challenges', 'factor')
}
