import { DataTypes } from 'sequelize'
import { tableOptions, type Migration } from './types.js'

/**
 * The delivery log: one row per message and endpoint, written in the transaction of the event it
 * carries, updated by each attempt. `payload` is the JSON body, the same on every retry, and
 * dropped once the delivery is over. No foreign key to the endpoint: a credential event's
 * transaction must never fail because an admin deleted an endpoint meanwhile (the deletion
 * removes its rows; a row written in that instant is dropped by its job).
 */
export const up: Migration = async ({ context: queryInterface }) => {
  await queryInterface.createTable(
    'webhook_deliveries',
    {
      id: { type: DataTypes.INTEGER, autoIncrement: true, primaryKey: true, allowNull: false },
      endpointId: { type: DataTypes.INTEGER, allowNull: false },
      // The Standard Webhooks `webhook-id`: one per message, kept across retries.
      messageId: { type: DataTypes.STRING(64), allowNull: false },
      event: { type: DataTypes.STRING(64), allowNull: false },
      payload: { type: DataTypes.TEXT, allowNull: true },
      status: { type: DataTypes.STRING(16), allowNull: false },
      attempts: { type: DataTypes.INTEGER, allowNull: false, defaultValue: 0 },
      responseStatus: { type: DataTypes.INTEGER, allowNull: true },
      error: { type: DataTypes.STRING(255), allowNull: true },
      createdAt: { type: DataTypes.DATE, allowNull: false },
      deliveredAt: { type: DataTypes.DATE, allowNull: true },
    },
    tableOptions,
  )
  await queryInterface.addIndex('webhook_deliveries', ['endpointId', 'id'], { name: 'webhook_deliveries_endpoint' })
  await queryInterface.addIndex('webhook_deliveries', ['createdAt'], { name: 'webhook_deliveries_age' })
}

export const down: Migration = async ({ context: queryInterface }) => {
  await queryInterface.dropTable('webhook_deliveries')
}
