import { DataTypes } from 'sequelize'
import { tableOptions, type Migration } from '../../../db/migrations/types.js'

/**
 * What a team's SSO knows of an account: whether the team's SSO or SCIM made it (`created`: then
 * the team may suspend it when its IdP lets the person go), and what the team's SCIM said of it
 * (`scim`: provisioned, `externalId`, `active`). One row per team and account, gone with either.
 */
export const up: Migration = async ({ context: queryInterface }) => {
  await queryInterface.createTable(
    'sso_team_accounts',
    {
      id: { type: DataTypes.INTEGER, autoIncrement: true, primaryKey: true, allowNull: false },
      teamId: {
        type: DataTypes.INTEGER,
        allowNull: false,
        references: { model: 'teams', key: 'id' },
        onDelete: 'CASCADE',
        onUpdate: 'CASCADE',
      },
      userId: {
        type: DataTypes.INTEGER,
        allowNull: false,
        references: { model: 'users', key: 'id' },
        onDelete: 'CASCADE',
        onUpdate: 'CASCADE',
      },
      created: { type: DataTypes.BOOLEAN, allowNull: false, defaultValue: false },
      scim: { type: DataTypes.BOOLEAN, allowNull: false, defaultValue: false },
      externalId: { type: DataTypes.STRING(255), allowNull: true },
      active: { type: DataTypes.BOOLEAN, allowNull: false, defaultValue: true },
      createdAt: { type: DataTypes.DATE, allowNull: false },
      updatedAt: { type: DataTypes.DATE, allowNull: false },
    },
    tableOptions,
  )
  await queryInterface.addIndex('sso_team_accounts', ['teamId', 'userId'], { name: 'sso_team_accounts_team_user', unique: true })
  await queryInterface.addIndex('sso_team_accounts', ['teamId', 'externalId'], { name: 'sso_team_accounts_external' })
  await queryInterface.addIndex('sso_team_accounts', ['userId'], { name: 'sso_team_accounts_user' })
}

export const down: Migration = async ({ context: queryInterface }) => {
  await queryInterface.dropTable('sso_team_accounts')
}
