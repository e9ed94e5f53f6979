import { DataTypes } from 'sequelize'
import { tableOptions, type Migration } from '../../../db/migrations/types.js'

/** The provider's signing keys (models/signing-key.ts), their private parts sealed. */
export const up: Migration = async ({ context: queryInterface }) => {
  await queryInterface.createTable(
    'oauth_signing_keys',
    {
      id: { type: DataTypes.INTEGER, autoIncrement: true, primaryKey: true, allowNull: false },
      kid: { type: DataTypes.STRING(64), allowNull: false },
      alg: { type: DataTypes.STRING(10), allowNull: false },
      privateJwk: { type: DataTypes.TEXT, allowNull: false },
      retiredAt: { type: DataTypes.DATE, allowNull: true },
      createdAt: { type: DataTypes.DATE, allowNull: false },
      updatedAt: { type: DataTypes.DATE, allowNull: false },
    },
    tableOptions,
  )
  await queryInterface.addIndex('oauth_signing_keys', ['kid'], { name: 'oauth_signing_keys_kid', unique: true })
}

export const down: Migration = async ({ context: queryInterface }) => {
  await queryInterface.dropTable('oauth_signing_keys')
}
