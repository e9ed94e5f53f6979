import { DataTypes } from 'sequelize'
import type { Migration } from './types.js'

/**
 * An endpoint's circuit breaker (webhooks/breaker.ts): its failed attempts in a row, and while
 * it is paused since when, until when and why. A paused endpoint's messages wait, uncounted.
 */
export const up: Migration = async ({ context: queryInterface }) => {
  await queryInterface.addColumn('webhook_endpoints', 'failureStreak', { type: DataTypes.INTEGER, allowNull: false, defaultValue: 0 })
  await queryInterface.addColumn('webhook_endpoints', 'pausedAt', { type: DataTypes.DATE, allowNull: true, defaultValue: null })
  await queryInterface.addColumn('webhook_endpoints', 'pausedUntil', { type: DataTypes.DATE, allowNull: true, defaultValue: null })
  await queryInterface.addColumn('webhook_endpoints', 'pauseReason', { type: DataTypes.STRING(255), allowNull: true, defaultValue: null })
}

export const down: Migration = async ({ context: queryInterface }) => {
  for (const column of ['pauseReason', 'pausedUntil', 'pausedAt', 'failureStreak']) await queryInterface.removeColumn('webhook_endpoints', column)
}
