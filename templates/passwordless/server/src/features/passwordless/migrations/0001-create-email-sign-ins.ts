import { DataTypes } from 'sequelize'
import { allowNoPassword, tableOptions, type Migration } from '../../../db/migrations/types.js'

/**
 * Sign-in by e-mail: the pending sign-in mails (a link and a code, hashed, and the browser that
 * asked), the codes mailed to confirm it's you, and users without a password (signed up by e-mail).
 */
export const up: Migration = async ({ context: queryInterface }) => {
  await allowNoPassword(queryInterface)
  const user = (allowNull: boolean) => ({
    type: DataTypes.INTEGER,
    allowNull,
    references: { model: 'users', key: 'id' },
    onDelete: 'CASCADE',
    onUpdate: 'CASCADE',
  })
  await queryInterface.createTable(
    'email_sign_ins',
    {
      id: { type: DataTypes.INTEGER, autoIncrement: true, primaryKey: true, allowNull: false },
      email: { type: DataTypes.STRING(255), allowNull: false },
      // Null for an address without an account yet (a sign-up by e-mail).
      userId: user(true),
      tokenHash: { type: DataTypes.STRING(64), allowNull: false },
      codeHash: { type: DataTypes.STRING(64), allowNull: true },
      attempts: { type: DataTypes.INTEGER, allowNull: false, defaultValue: 0 },
      bindingHash: { type: DataTypes.STRING(64), allowNull: false },
      remember: { type: DataTypes.BOOLEAN, allowNull: false, defaultValue: false },
      approvedAt: { type: DataTypes.DATE, allowNull: true },
      expiresAt: { type: DataTypes.DATE, allowNull: false },
      createdAt: { type: DataTypes.DATE, allowNull: false },
    },
    tableOptions,
  )
  await queryInterface.addIndex('email_sign_ins', ['tokenHash'], { name: 'email_sign_ins_token', unique: true })
  await queryInterface.addIndex('email_sign_ins', ['email'], { name: 'email_sign_ins_email' })
  await queryInterface.addIndex('email_sign_ins', ['bindingHash'], { name: 'email_sign_ins_binding' })
  await queryInterface.addIndex('email_sign_ins', ['userId'], { name: 'email_sign_ins_user' })

  await queryInterface.createTable(
    'email_confirm_codes',
    {
      id: { type: DataTypes.INTEGER, autoIncrement: true, primaryKey: true, allowNull: false },
      userId: user(false),
      sessionId: { type: DataTypes.STRING(64), allowNull: false },
      codeHash: { type: DataTypes.STRING(64), allowNull: false },
      attempts: { type: DataTypes.INTEGER, allowNull: false, defaultValue: 0 },
      expiresAt: { type: DataTypes.DATE, allowNull: false },
      createdAt: { type: DataTypes.DATE, allowNull: false },
    },
    tableOptions,
  )
  await queryInterface.addIndex('email_confirm_codes', ['userId', 'sessionId'], { name: 'email_confirm_codes_session' })
}

/** users.password stays optional: another layer's accounts may have none too, and nothing needs it required. */
export const down: Migration = async ({ context: queryInterface }) => {
  await queryInterface.dropTable('email_confirm_codes')
  await queryInterface.dropTable('email_sign_ins')
}
