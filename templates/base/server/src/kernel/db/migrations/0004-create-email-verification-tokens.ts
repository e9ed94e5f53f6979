import { DataTypes } from 'sequelize'
import { tableOptions, type Migration } from './types.js'

export const up: Migration = async ({ context: queryInterface }) => {
  await queryInterface.createTable(
    'email_verification_tokens',
    {
      id: { type: DataTypes.INTEGER, autoIncrement: true, primaryKey: true, allowNull: false },
      userId: {
        type: DataTypes.INTEGER,
        allowNull: false,
        references: { model: 'users', key: 'id' },
        onDelete: 'CASCADE',
        onUpdate: 'CASCADE',
      },
      // SHA-256 of the mailed token, hex: the token itself is never stored.
      tokenHash: { type: DataTypes.STRING(64), allowNull: false, unique: true },
      expiresAt: { type: DataTypes.DATE, allowNull: false },
      createdAt: { type: DataTypes.DATE, allowNull: false },
      // A link mailed after a registration carries that registration's name and password hash;
      // using the link sets them (services/email-verification.ts). Links asked for otherwise
      // (resend without a pending registration) leave both null.
      name: { type: DataTypes.STRING(255), allowNull: true },
      password: { type: DataTypes.TEXT, allowNull: true },
      // A registration's link either sets that registration's password (the address's one pending
      // registration) or asks for a new one on the page (`choose`: the address had another
      // registration or an account). A link voided by a later registration or by the use of
      // another one keeps its row until it expires, as a pending registration: a login with its
      // password answers like one with an unverified address's.
      choose: { type: DataTypes.BOOLEAN, allowNull: false, defaultValue: false },
      voidedAt: { type: DataTypes.DATE, allowNull: true },
    },
    tableOptions,
  )
  await queryInterface.addIndex('email_verification_tokens', ['userId'], { name: 'email_verification_tokens_user' })
}

export const down: Migration = async ({ context: queryInterface }) => {
  await queryInterface.dropTable('email_verification_tokens')
}
