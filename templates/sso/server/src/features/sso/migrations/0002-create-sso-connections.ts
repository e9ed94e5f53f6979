import { DataTypes } from 'sequelize'
import { tableOptions, type Migration } from '../../../db/migrations/types.js'

/**
 * A team's one identity provider: its kind (`saml`, `oidc`), what the app needs of it as JSON
 * (`settings`: a SAML IdP's entity id, sign-in URL and signing certificates; an OpenID provider's
 * issuer and client, the client's secret sealed), the role a member it signs up gets, and whether
 * the team's domains must sign in through it. Gone with the team.
 */
export const up: Migration = async ({ context: queryInterface }) => {
  await queryInterface.createTable(
    'sso_connections',
    {
      id: { type: DataTypes.INTEGER, autoIncrement: true, primaryKey: true, allowNull: false },
      teamId: {
        type: DataTypes.INTEGER,
        allowNull: false,
        unique: true,
        references: { model: 'teams', key: 'id' },
        onDelete: 'CASCADE',
        onUpdate: 'CASCADE',
      },
      type: { type: DataTypes.STRING(8), allowNull: false },
      settings: { type: DataTypes.TEXT, allowNull: false },
      defaultRole: { type: DataTypes.STRING(16), allowNull: false },
      requireSso: { type: DataTypes.BOOLEAN, allowNull: false, defaultValue: false },
      createdAt: { type: DataTypes.DATE, allowNull: false },
      updatedAt: { type: DataTypes.DATE, allowNull: false },
    },
    tableOptions,
  )
}

export const down: Migration = async ({ context: queryInterface }) => {
  await queryInterface.dropTable('sso_connections')
}
