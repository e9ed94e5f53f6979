import { DataTypes } from 'sequelize'
import { tableOptions, type Migration } from '../../../db/migrations/types.js'

/**
 * Teams, their members with a role, and the user's current team; then a personal team for every
 * user who has none, so `add teams` on an app with users leaves none of them without one (and
 * running it again adds nothing).
 */
export const up: Migration = async ({ context: queryInterface }) => {
  await queryInterface.createTable(
    'teams',
    {
      id: { type: DataTypes.INTEGER, autoIncrement: true, primaryKey: true, allowNull: false },
      // A user's name (255) and "'s Team" fit.
      name: { type: DataTypes.STRING(320), allowNull: false },
      personalUserId: {
        type: DataTypes.INTEGER,
        allowNull: true,
        references: { model: 'users', key: 'id' },
        onDelete: 'CASCADE',
        onUpdate: 'CASCADE',
      },
      createdAt: { type: DataTypes.DATE, allowNull: false },
      updatedAt: { type: DataTypes.DATE, allowNull: false },
    },
    tableOptions,
  )
  await queryInterface.addIndex('teams', ['personalUserId'], { name: 'teams_personal_user', unique: true })

  const cascade = { onDelete: 'CASCADE', onUpdate: 'CASCADE' }
  await queryInterface.createTable(
    'team_members',
    {
      id: { type: DataTypes.INTEGER, autoIncrement: true, primaryKey: true, allowNull: false },
      teamId: { type: DataTypes.INTEGER, allowNull: false, references: { model: 'teams', key: 'id' }, ...cascade },
      userId: { type: DataTypes.INTEGER, allowNull: false, references: { model: 'users', key: 'id' }, ...cascade },
      role: { type: DataTypes.STRING(16), allowNull: false },
      createdAt: { type: DataTypes.DATE, allowNull: false },
      updatedAt: { type: DataTypes.DATE, allowNull: false },
    },
    tableOptions,
  )
  // The membership check of every team route, and a team's members in their join order.
  await queryInterface.addIndex('team_members', ['teamId', 'userId'], { name: 'team_members_team_user', unique: true })
  await queryInterface.addIndex('team_members', ['teamId', 'createdAt', 'userId'], { name: 'team_members_team_joined' })
  // A user's teams (the switcher), and the owners of a team (the last-owner checks).
  await queryInterface.addIndex('team_members', ['userId'], { name: 'team_members_user' })
  await queryInterface.addIndex('team_members', ['teamId', 'role'], { name: 'team_members_team_role' })

  // A team's activity (services/team-activity.ts) reads the teams' event types, newest first,
  // out of every sign-in the app records.
  await queryInterface.addIndex('security_events', ['type', 'createdAt'], { name: 'security_events_type' })

  // No foreign key: a current team the user is no longer a member of reads as the personal one
  // (services/current-team.ts), and a key from users to teams would make the two tables' deletions depend on each other.
  await queryInterface.addColumn('users', 'currentTeamId', { type: DataTypes.INTEGER, allowNull: true })

  const sequelize = queryInterface.sequelize
  const mysql = sequelize.getDialect() === 'mysql'
  const q = (text: string) => (mysql ? text.replaceAll('"', '`') : text)
  const teamName = mysql ? 'CONCAT(u.name, :suffix)' : 'u.name || :suffix'
  const now = new Date()
  await sequelize.query(
    q(`INSERT INTO teams (name, "personalUserId", "createdAt", "updatedAt")
      SELECT ${teamName}, u.id, :now, :now FROM users u WHERE NOT EXISTS (SELECT 1 FROM teams t WHERE t."personalUserId" = u.id)`),
    { replacements: { suffix: "'s Team", now } },
  )
  await sequelize.query(
    q(`INSERT INTO team_members ("teamId", "userId", role, "createdAt", "updatedAt")
      SELECT t.id, t."personalUserId", 'owner', :now, :now FROM teams t
      WHERE t."personalUserId" IS NOT NULL AND NOT EXISTS (SELECT 1 FROM team_members m WHERE m."teamId" = t.id)`),
    { replacements: { now } },
  )
  await sequelize.query(q(`UPDATE users SET "currentTeamId" = (SELECT t.id FROM teams t WHERE t."personalUserId" = users.id) WHERE "currentTeamId" IS NULL`))
}

export const down: Migration = async ({ context: queryInterface }) => {
  await queryInterface.removeIndex('security_events', 'security_events_type')
  await queryInterface.removeColumn('users', 'currentTeamId')
  await queryInterface.dropTable('team_members')
  await queryInterface.dropTable('teams')
}
