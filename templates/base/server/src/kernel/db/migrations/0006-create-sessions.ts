import { DataTypes } from 'sequelize'
import { tableOptions, type Migration } from './types.js'

/**
 * One row per sign-in (the family of refresh tokens one login started, whose id it shares):
 * what the sessions page lists, and what the access token's `sid` claim names so a revoked
 * session loses its access token too.
 */
export const up: Migration = async ({ context: queryInterface }) => {
  await queryInterface.createTable(
    'sessions',
    {
      id: { type: DataTypes.STRING(64), primaryKey: true, allowNull: false },
      userId: {
        type: DataTypes.INTEGER,
        allowNull: true,
        references: { model: 'users', key: 'id' },
        onDelete: 'SET NULL',
        onUpdate: 'CASCADE',
      },
      remember: { type: DataTypes.BOOLEAN, allowNull: false, defaultValue: false },
      // An IPv6 address in text is at most 45 characters.
      ip: { type: DataTypes.STRING(45), allowNull: true },
      userAgent: { type: DataTypes.STRING(512), allowNull: true },
      createdAt: { type: DataTypes.DATE, allowNull: false },
      lastUsedAt: { type: DataTypes.DATE, allowNull: false },
      expiresAt: { type: DataTypes.DATE, allowNull: false },
      revokedAt: { type: DataTypes.DATE, allowNull: true },
    },
    tableOptions,
  )
  await queryInterface.addIndex('sessions', ['userId', 'revokedAt'], { name: 'sessions_user_revoked' })
}

export const down: Migration = async ({ context: queryInterface }) => {
  await queryInterface.dropTable('sessions')
}
