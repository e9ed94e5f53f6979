import { DataTypes } from 'sequelize'
import { tableOptions, type Migration } from '../../../db/migrations/types.js'

/**
 * Pending invitations: one per team and address (a new one replaces the old), the SHA-256 of the
 * mailed token, and the member who sent it. A team's or an inviter's deletion takes its
 * invitations with it.
 */
export const up: Migration = async ({ context: queryInterface }) => {
  await queryInterface.createTable(
    'team_invitations',
    {
      id: { type: DataTypes.INTEGER, autoIncrement: true, primaryKey: true, allowNull: false },
      teamId: {
        type: DataTypes.INTEGER,
        allowNull: false,
        references: { model: 'teams', key: 'id' },
        onDelete: 'CASCADE',
        onUpdate: 'CASCADE',
      },
      email: { type: DataTypes.STRING(255), allowNull: false },
      role: { type: DataTypes.STRING(16), allowNull: false },
      tokenHash: { type: DataTypes.STRING(64), allowNull: false, unique: true },
      invitedBy: {
        type: DataTypes.INTEGER,
        allowNull: false,
        references: { model: 'users', key: 'id' },
        onDelete: 'CASCADE',
        onUpdate: 'CASCADE',
      },
      expiresAt: { type: DataTypes.DATE, allowNull: false },
      createdAt: { type: DataTypes.DATE, allowNull: false },
      updatedAt: { type: DataTypes.DATE, allowNull: false },
    },
    tableOptions,
  )
  await queryInterface.addIndex('team_invitations', ['teamId', 'email'], { name: 'team_invitations_team_email', unique: true })
  await queryInterface.addIndex('team_invitations', ['invitedBy'], { name: 'team_invitations_inviter' })
}

export const down: Migration = async ({ context: queryInterface }) => {
  await queryInterface.dropTable('team_invitations')
}
