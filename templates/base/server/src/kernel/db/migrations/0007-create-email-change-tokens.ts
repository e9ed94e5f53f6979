import { DataTypes } from 'sequelize'
import { tableOptions, type Migration } from './types.js'

/** A pending e-mail change: the new address and the SHA-256 of the token mailed to it. */
export const up: Migration = async ({ context: queryInterface }) => {
  await queryInterface.createTable(
    'email_change_tokens',
    {
      id: { type: DataTypes.INTEGER, autoIncrement: true, primaryKey: true, allowNull: false },
      userId: {
        type: DataTypes.INTEGER,
        allowNull: false,
        references: { model: 'users', key: 'id' },
        onDelete: 'CASCADE',
        onUpdate: 'CASCADE',
      },
      email: { type: DataTypes.STRING(255), allowNull: false },
      tokenHash: { type: DataTypes.STRING(64), allowNull: false, unique: true },
      expiresAt: { type: DataTypes.DATE, allowNull: false },
      createdAt: { type: DataTypes.DATE, allowNull: false },
    },
    tableOptions,
  )
  await queryInterface.addIndex('email_change_tokens', ['userId'], { name: 'email_change_tokens_user' })
}

export const down: Migration = async ({ context: queryInterface }) => {
  await queryInterface.dropTable('email_change_tokens')
}
