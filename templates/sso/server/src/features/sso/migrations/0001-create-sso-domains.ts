import { DataTypes } from 'sequelize'
import { tableOptions, type Migration } from '../../../db/migrations/types.js'

/**
 * The domains a team claims for its SSO: the value of the DNS TXT record that proves the claim,
 * and, once proved, `verifiedDomain`, unique across teams, so that a domain belongs to at most one
 * team however two verifications race. Gone with the team.
 */
export const up: Migration = async ({ context: queryInterface }) => {
  await queryInterface.createTable(
    'sso_domains',
    {
      id: { type: DataTypes.INTEGER, autoIncrement: true, primaryKey: true, allowNull: false },
      teamId: {
        type: DataTypes.INTEGER,
        allowNull: false,
        references: { model: 'teams', key: 'id' },
        onDelete: 'CASCADE',
        onUpdate: 'CASCADE',
      },
      domain: { type: DataTypes.STRING(253), allowNull: false },
      txtValue: { type: DataTypes.STRING(64), allowNull: false },
      verifiedDomain: { type: DataTypes.STRING(253), allowNull: true },
      verifiedAt: { type: DataTypes.DATE, allowNull: true },
      createdAt: { type: DataTypes.DATE, allowNull: false },
      updatedAt: { type: DataTypes.DATE, allowNull: false },
    },
    tableOptions,
  )
  await queryInterface.addIndex('sso_domains', ['teamId', 'domain'], { name: 'sso_domains_team_domain', unique: true })
  await queryInterface.addIndex('sso_domains', ['verifiedDomain'], { name: 'sso_domains_verified', unique: true })
}

export const down: Migration = async ({ context: queryInterface }) => {
  await queryInterface.dropTable('sso_domains')
}
