import { DataTypes } from 'sequelize'
import type { Migration } from './types.js'

/**
 * Whether an event ended sessions (and so voided the user's pending links). A mail job whose
 * account lookup happens in the job (forgot-password, resend-verification) delivers nothing when
 * such an event came after its request was accepted: the link it would mint would have been void.
 * Older rows count as not revoking; only events newer than a queued job matter.
 */
export const up: Migration = async ({ context: queryInterface }) => {
  await queryInterface.addColumn('security_events', 'revoking', { type: DataTypes.BOOLEAN, allowNull: false, defaultValue: false })
}

export const down: Migration = async ({ context: queryInterface }) => {
  await queryInterface.removeColumn('security_events', 'revoking')
}
