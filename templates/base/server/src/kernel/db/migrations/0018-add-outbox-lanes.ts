import { DataTypes, Op } from 'sequelize'
import type { Migration } from './types.js'

/**
 * An outbox lane per webhook endpoint (jobs/outbox.ts): its messages are claimed apart from the
 * app's mail and from each other's, a few at a time, so a receiver that never answers cannot
 * leave a password reset behind hundreds of its messages. Null: the lane of every other job.
 * Messages already waiting go to one lane of their own (their endpoint is not in their row).
 */
export const up: Migration = async ({ context: queryInterface }) => {
  await queryInterface.addColumn('outbox_jobs', 'lane', { type: DataTypes.STRING(64), allowNull: true, defaultValue: null })
  await queryInterface.bulkUpdate('outbox_jobs', { lane: 'webhook' }, { name: 'webhook:deliver', finishedAt: { [Op.is]: null }, failedAt: { [Op.is]: null } })
  await queryInterface.addIndex('outbox_jobs', ['queue', 'lane', 'finishedAt', 'availableAt'], { name: 'outbox_jobs_lane_due' })
}

export const down: Migration = async ({ context: queryInterface }) => {
  await queryInterface.removeIndex('outbox_jobs', 'outbox_jobs_lane_due')
  await queryInterface.removeColumn('outbox_jobs', 'lane')
}
