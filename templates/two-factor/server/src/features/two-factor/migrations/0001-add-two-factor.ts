import { DataTypes } from 'sequelize'
import { tableOptions, type Migration } from '../../../db/migrations/types.js'

/**
 * Two-factor authentication: the (encrypted) TOTP secret and its state on the user, hashed
 * recovery codes, and the challenges between the password step of a login and its code.
 */
export const up: Migration = async ({ context: queryInterface }) => {
  await queryInterface.addColumn('users', 'twoFactorSecret', { type: DataTypes.TEXT, allowNull: true })
  await queryInterface.addColumn('users', 'twoFactorPendingSecret', { type: DataTypes.TEXT, allowNull: true })
  await queryInterface.addColumn('users', 'twoFactorConfirmedAt', { type: DataTypes.DATE, allowNull: true })
  await queryInterface.addColumn('users', 'twoFactorLastStep', { type: DataTypes.INTEGER, allowNull: true })

  const userId = {
    type: DataTypes.INTEGER,
    allowNull: false,
    references: { model: 'users', key: 'id' },
    onDelete: 'CASCADE',
    onUpdate: 'CASCADE',
  }
  await queryInterface.createTable(
    'two_factor_recovery_codes',
    {
      id: { type: DataTypes.INTEGER, autoIncrement: true, primaryKey: true, allowNull: false },
      userId,
      codeHash: { type: DataTypes.STRING(64), allowNull: false },
      createdAt: { type: DataTypes.DATE, allowNull: false },
    },
    tableOptions,
  )
  await queryInterface.addIndex('two_factor_recovery_codes', ['userId', 'codeHash'], { name: 'two_factor_recovery_codes_user_code', unique: true })

  await queryInterface.createTable(
    'two_factor_challenges',
    {
      // The SHA-256 of the token in the challenge cookie.
      id: { type: DataTypes.STRING(64), primaryKey: true, allowNull: false },
      userId,
      remember: { type: DataTypes.BOOLEAN, allowNull: false, defaultValue: false },
      attempts: { type: DataTypes.INTEGER, allowNull: false, defaultValue: 0 },
      expiresAt: { type: DataTypes.DATE, allowNull: false },
      createdAt: { type: DataTypes.DATE, allowNull: false },
    },
    tableOptions,
  )
  await queryInterface.addIndex('two_factor_challenges', ['userId'], { name: 'two_factor_challenges_user' })
}

export const down: Migration = async ({ context: queryInterface }) => {
  await queryInterface.dropTable('two_factor_challenges')
  await queryInterface.dropTable('two_factor_recovery_codes')
  for (const column of ['twoFactorLastStep', 'twoFactorConfirmedAt', 'twoFactorPendingSecret', 'twoFactorSecret']) {
    await queryInterface.removeColumn('users', column)
  }
}
