import { DataTypes } from 'sequelize'
import { tableOptions, type Migration } from './types.js'

/**
 * The account's security activity (security/credential-events.ts): one row per credential event,
 * kept 90 days. `device` and `network` are what the new-device rule compares; `sessionId` marks
 * the events of the session that asks for the list. A deleted user's rows stay (userId null)
 * until they age out, as the audit trail of what happened to the account.
 */
export const up: Migration = async ({ context: queryInterface }) => {
  await queryInterface.createTable(
    'security_events',
    {
      id: { type: DataTypes.INTEGER, autoIncrement: true, primaryKey: true, allowNull: false },
      userId: {
        type: DataTypes.INTEGER,
        allowNull: true,
        references: { model: 'users', key: 'id' },
        onDelete: 'SET NULL',
        onUpdate: 'CASCADE',
      },
      type: { type: DataTypes.STRING(64), allowNull: false },
      sessionId: { type: DataTypes.STRING(64), allowNull: true },
      ip: { type: DataTypes.STRING(45), allowNull: true },
      userAgent: { type: DataTypes.STRING(512), allowNull: true },
      device: { type: DataTypes.STRING(255), allowNull: true },
      network: { type: DataTypes.STRING(64), allowNull: true },
      meta: { type: DataTypes.TEXT, allowNull: true },
      createdAt: { type: DataTypes.DATE, allowNull: false },
    },
    tableOptions,
  )
  await queryInterface.addIndex('security_events', ['userId', 'createdAt'], { name: 'security_events_user' })
  await queryInterface.addIndex('security_events', ['createdAt'], { name: 'security_events_age' })
}

export const down: Migration = async ({ context: queryInterface }) => {
  await queryInterface.dropTable('security_events')
}
