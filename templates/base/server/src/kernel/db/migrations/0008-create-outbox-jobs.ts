import { DataTypes } from 'sequelize'
import { tableOptions, type Migration } from './types.js'

/**
 * The transactional outbox (jobs/outbox.ts): every job a 2xx answer promised is a row here before
 * the answer leaves, so a Redis outage or a restart of every instance loses none.
 */
export const up: Migration = async ({ context: queryInterface }) => {
  await queryInterface.createTable(
    'outbox_jobs',
    {
      id: { type: DataTypes.INTEGER, autoIncrement: true, primaryKey: true, allowNull: false },
      // The app's key prefix: apps (or test runs) sharing a database each work on their own jobs.
      queue: { type: DataTypes.STRING(64), allowNull: false },
      name: { type: DataTypes.STRING(64), allowNull: false },
      payload: { type: DataTypes.TEXT, allowNull: false },
      attempts: { type: DataTypes.INTEGER, allowNull: false, defaultValue: 0 },
      availableAt: { type: DataTypes.DATE, allowNull: false },
      lockedUntil: { type: DataTypes.DATE, allowNull: true },
      finishedAt: { type: DataTypes.DATE, allowNull: true },
      failedAt: { type: DataTypes.DATE, allowNull: true },
      createdAt: { type: DataTypes.DATE, allowNull: false },
    },
    tableOptions,
  )
  await queryInterface.addIndex('outbox_jobs', ['queue', 'finishedAt', 'availableAt'], { name: 'outbox_jobs_due' })
}

export const down: Migration = async ({ context: queryInterface }) => {
  await queryInterface.dropTable('outbox_jobs')
}
