import { DataTypes } from 'sequelize'
import { tableOptions, type Migration } from '../../../db/migrations/types.js'

/** The provider's objects of every kind (models/oidc-payload.ts), gone with their user. */
export const up: Migration = async ({ context: queryInterface }) => {
  await queryInterface.createTable(
    'oidc_payloads',
    {
      // SHA-256 hex of `<kind>:<id>`: the id of a code or token is never stored.
      id: { type: DataTypes.STRING(64), primaryKey: true, allowNull: false },
      kind: { type: DataTypes.STRING(40), allowNull: false },
      payload: { type: DataTypes.TEXT, allowNull: false },
      grantId: { type: DataTypes.STRING(64), allowNull: true },
      clientId: { type: DataTypes.STRING(64), allowNull: true },
      userCodeHash: { type: DataTypes.STRING(64), allowNull: true },
      uid: { type: DataTypes.STRING(64), allowNull: true },
      userId: {
        type: DataTypes.INTEGER,
        allowNull: true,
        references: { model: 'users', key: 'id' },
        onDelete: 'CASCADE',
        onUpdate: 'CASCADE',
      },
      expiresAt: { type: DataTypes.DATE, allowNull: true },
      consumedAt: { type: DataTypes.DATE, allowNull: true },
    },
    tableOptions,
  )
  await queryInterface.addIndex('oidc_payloads', ['kind', 'grantId'], { name: 'oidc_payloads_grant' })
  await queryInterface.addIndex('oidc_payloads', ['kind', 'uid'], { name: 'oidc_payloads_uid' })
  await queryInterface.addIndex('oidc_payloads', ['kind', 'userCodeHash'], { name: 'oidc_payloads_user_code' })
  await queryInterface.addIndex('oidc_payloads', ['userId'], { name: 'oidc_payloads_user' })
  await queryInterface.addIndex('oidc_payloads', ['clientId'], { name: 'oidc_payloads_client' })
  await queryInterface.addIndex('oidc_payloads', ['expiresAt'], { name: 'oidc_payloads_expiry' })
}

export const down: Migration = async ({ context: queryInterface }) => {
  await queryInterface.dropTable('oidc_payloads')
}
