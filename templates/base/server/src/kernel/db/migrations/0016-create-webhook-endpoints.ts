import { DataTypes } from 'sequelize'
import { tableOptions, type Migration } from './types.js'

/**
 * Where the app's events go (webhooks/): an admin's endpoints, each with the events it takes (a
 * JSON list) and its signing secret, sealed with AES-256-GCM (security/encryption.ts): the
 * database alone never yields a secret that signs messages.
 */
export const up: Migration = async ({ context: queryInterface }) => {
  await queryInterface.createTable(
    'webhook_endpoints',
    {
      id: { type: DataTypes.INTEGER, autoIncrement: true, primaryKey: true, allowNull: false },
      url: { type: DataTypes.STRING(2048), allowNull: false },
      events: { type: DataTypes.TEXT, allowNull: false },
      secret: { type: DataTypes.STRING(255), allowNull: false },
      createdAt: { type: DataTypes.DATE, allowNull: false },
      updatedAt: { type: DataTypes.DATE, allowNull: false },
    },
    tableOptions,
  )
}

export const down: Migration = async ({ context: queryInterface }) => {
  await queryInterface.dropTable('webhook_endpoints')
}
