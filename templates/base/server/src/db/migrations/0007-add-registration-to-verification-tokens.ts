import { DataTypes } from 'sequelize'
import type { Migration } from './types.js'

/**
 * A verification link mailed after a registration carries that registration's name and
 * password hash; using the link sets them (services/email-verification.ts). Links asked for
 * otherwise (resend without a pending registration) leave both null.
 */
export const up: Migration = async ({ context: queryInterface }) => {
  await queryInterface.addColumn('email_verification_tokens', 'name', { type: DataTypes.STRING(255), allowNull: true })
  await queryInterface.addColumn('email_verification_tokens', 'password', { type: DataTypes.TEXT, allowNull: true })
}

export const down: Migration = async ({ context: queryInterface }) => {
  await queryInterface.removeColumn('email_verification_tokens', 'password')
  await queryInterface.removeColumn('email_verification_tokens', 'name')
}
