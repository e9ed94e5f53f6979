import { DataTypes } from 'sequelize'
import type { Migration } from './types.js'

/**
 * A registration's link either sets that registration's password (the address's one pending
 * registration) or asks for a new one on the page (`choose`: the address had another
 * registration or an account). A link voided by a later registration or by the use of another
 * one keeps its row until it expires, as a pending registration: a login with its password
 * answers like one with an unverified address's (services/email-verification.ts).
 */
export const up: Migration = async ({ context: queryInterface }) => {
  await queryInterface.addColumn('email_verification_tokens', 'choose', { type: DataTypes.BOOLEAN, allowNull: false, defaultValue: false })
  await queryInterface.addColumn('email_verification_tokens', 'voidedAt', { type: DataTypes.DATE, allowNull: true })
}

export const down: Migration = async ({ context: queryInterface }) => {
  await queryInterface.removeColumn('email_verification_tokens', 'voidedAt')
  await queryInterface.removeColumn('email_verification_tokens', 'choose')
}
