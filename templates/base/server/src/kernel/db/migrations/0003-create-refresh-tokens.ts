import { DataTypes } from 'sequelize'
import { tableOptions, type Migration } from './types.js'

export const up: Migration = async ({ context: queryInterface }) => {
  await queryInterface.createTable(
    'refresh_tokens',
    {
      id: { type: DataTypes.INTEGER, autoIncrement: true, primaryKey: true, allowNull: false },
      userId: {
        type: DataTypes.INTEGER,
        allowNull: true,
        references: { model: 'users', key: 'id' },
        onDelete: 'SET NULL',
        onUpdate: 'CASCADE',
      },
      // 191 characters keeps the unique index within MySQL's key length for utf8mb4.
      jti: { type: DataTypes.STRING(191), allowNull: false, unique: true },
      family: { type: DataTypes.STRING(64), allowNull: false },
      revoked: { type: DataTypes.BOOLEAN, allowNull: false, defaultValue: false },
      revokedAt: { type: DataTypes.DATE, allowNull: true },
      replacedBy: { type: DataTypes.STRING(191), allowNull: true },
      expiresAt: { type: DataTypes.DATE, allowNull: false },
      createdAt: { type: DataTypes.DATE, allowNull: false },
    },
    tableOptions,
  )
  await queryInterface.addIndex('refresh_tokens', ['family'], { name: 'refresh_tokens_family' })
  await queryInterface.addIndex('refresh_tokens', ['userId', 'revoked'], { name: 'refresh_tokens_user_revoked' })
}

export const down: Migration = async ({ context: queryInterface }) => {
  await queryInterface.dropTable('refresh_tokens')
}
