import { DataTypes } from 'sequelize'
import { tableOptions, type Migration } from './types.js'

export const up: Migration = async ({ context: queryInterface }) => {
  await queryInterface.createTable(
    'password_reset_tokens',
    {
      id: { type: DataTypes.INTEGER, autoIncrement: true, primaryKey: true, allowNull: false },
      userId: {
        type: DataTypes.INTEGER,
        allowNull: false,
        references: { model: 'users', key: 'id' },
        onDelete: 'CASCADE',
        onUpdate: 'CASCADE',
      },
      // SHA-256 of the mailed token, hex: the token itself is never stored.
      tokenHash: { type: DataTypes.STRING(64), allowNull: false, unique: true },
      expiresAt: { type: DataTypes.DATE, allowNull: false },
      createdAt: { type: DataTypes.DATE, allowNull: false },
    },
    tableOptions,
  )
  await queryInterface.addIndex('password_reset_tokens', ['userId'], { name: 'password_reset_tokens_user' })
}

export const down: Migration = async ({ context: queryInterface }) => {
  await queryInterface.dropTable('password_reset_tokens')
}
