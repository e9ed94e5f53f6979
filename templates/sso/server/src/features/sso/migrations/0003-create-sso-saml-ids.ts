import { DataTypes } from 'sequelize'
import { tableOptions, type Migration } from '../../../db/migrations/types.js'

/**
 * The SAML ids the app must remember for a while where there is no Redis: the requests it sent
 * (an answer must be to one of them, once) and the assertions it took (none is taken twice).
 * Each row goes when it expires.
 */
export const up: Migration = async ({ context: queryInterface }) => {
  await queryInterface.createTable(
    'sso_saml_ids',
    {
      key: { type: DataTypes.STRING(100), primaryKey: true, allowNull: false },
      expiresAt: { type: DataTypes.DATE, allowNull: false },
    },
    tableOptions,
  )
  await queryInterface.addIndex('sso_saml_ids', ['expiresAt'], { name: 'sso_saml_ids_expiry' })
}

export const down: Migration = async ({ context: queryInterface }) => {
  await queryInterface.dropTable('sso_saml_ids')
}
