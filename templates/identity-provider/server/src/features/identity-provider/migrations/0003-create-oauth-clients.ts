import { DataTypes } from 'sequelize'
import { tableOptions, type Migration } from '../../../db/migrations/types.js'

/** The clients admins registered (models/oauth-client.ts). */
export const up: Migration = async ({ context: queryInterface }) => {
  await queryInterface.createTable(
    'oauth_clients',
    {
      id: { type: DataTypes.INTEGER, autoIncrement: true, primaryKey: true, allowNull: false },
      // Lower-case letters and digits only, so every database's collation compares it exactly.
      clientId: { type: DataTypes.STRING(64), allowNull: false },
      name: { type: DataTypes.STRING(100), allowNull: false },
      confidential: { type: DataTypes.BOOLEAN, allowNull: false },
      secretHash: { type: DataTypes.STRING(64), allowNull: true },
      redirectUris: { type: DataTypes.TEXT, allowNull: false },
      grantTypes: { type: DataTypes.TEXT, allowNull: false },
      scopes: { type: DataTypes.TEXT, allowNull: false },
      createdBy: {
        type: DataTypes.INTEGER,
        allowNull: true,
        references: { model: 'users', key: 'id' },
        onDelete: 'SET NULL',
        onUpdate: 'CASCADE',
      },
      createdAt: { type: DataTypes.DATE, allowNull: false },
      updatedAt: { type: DataTypes.DATE, allowNull: false },
    },
    tableOptions,
  )
  await queryInterface.addIndex('oauth_clients', ['clientId'], { name: 'oauth_clients_client_id', unique: true })
}

export const down: Migration = async ({ context: queryInterface }) => {
  await queryInterface.dropTable('oauth_clients')
}
