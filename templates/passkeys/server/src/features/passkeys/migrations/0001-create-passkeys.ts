import { DataTypes } from 'sequelize'
import { tableOptions, type Migration } from '../../../db/migrations/types.js'

/**
 * Passkeys: the credentials, how many each user has (read by /me without a join), and the
 * challenges of ceremonies under way (kept here so any instance can finish what another began).
 */
export const up: Migration = async ({ context: queryInterface }) => {
  await queryInterface.addColumn('users', 'passkeyCount', { type: DataTypes.INTEGER, allowNull: false, defaultValue: 0 })

  const dialect = queryInterface.sequelize.getDialect()
  // Credential ids are base64url, where `a` and `A` differ: MySQL's default collation would
  // take them for one id, in the unique index and in every lookup.
  const credentialId = dialect === 'mysql' || dialect === 'mariadb' ? 'VARCHAR(255) CHARACTER SET ascii COLLATE ascii_bin' : DataTypes.STRING(255)
  await queryInterface.createTable(
    'passkeys',
    {
      id: { type: DataTypes.INTEGER, autoIncrement: true, primaryKey: true, allowNull: false },
      userId: {
        type: DataTypes.INTEGER,
        allowNull: false,
        references: { model: 'users', key: 'id' },
        onDelete: 'CASCADE',
        onUpdate: 'CASCADE',
      },
      credentialId: { type: credentialId, allowNull: false },
      // The COSE public key, base64url.
      publicKey: { type: DataTypes.TEXT, allowNull: false },
      counter: { type: DataTypes.BIGINT, allowNull: false, defaultValue: 0 },
      // Comma-separated: usb, nfc, ble, internal, hybrid, …
      transports: { type: DataTypes.STRING(255), allowNull: true },
      name: { type: DataTypes.STRING(100), allowNull: false },
      backedUp: { type: DataTypes.BOOLEAN, allowNull: false, defaultValue: false },
      createdAt: { type: DataTypes.DATE, allowNull: false },
      lastUsedAt: { type: DataTypes.DATE, allowNull: true },
    },
    tableOptions,
  )
  await queryInterface.addIndex('passkeys', ['credentialId'], { name: 'passkeys_credential_id', unique: true })
  await queryInterface.addIndex('passkeys', ['userId'], { name: 'passkeys_user' })

  await queryInterface.createTable(
    'passkey_challenges',
    {
      // The SHA-256 of the challenge.
      id: { type: DataTypes.STRING(64), primaryKey: true, allowNull: false },
      // `register` (a signed-in user adding a passkey) or `sign_in` (anyone).
      purpose: { type: DataTypes.STRING(16), allowNull: false },
      userId: {
        type: DataTypes.INTEGER,
        allowNull: true,
        references: { model: 'users', key: 'id' },
        onDelete: 'CASCADE',
        onUpdate: 'CASCADE',
      },
      // The session a registration belongs to.
      sessionId: { type: DataTypes.STRING(64), allowNull: true },
      expiresAt: { type: DataTypes.DATE, allowNull: false },
      createdAt: { type: DataTypes.DATE, allowNull: false },
    },
    tableOptions,
  )
  await queryInterface.addIndex('passkey_challenges', ['userId'], { name: 'passkey_challenges_user' })
  await queryInterface.addIndex('passkey_challenges', ['expiresAt'], { name: 'passkey_challenges_expires' })
}

export const down: Migration = async ({ context: queryInterface }) => {
  await queryInterface.dropTable('passkey_challenges')
  await queryInterface.dropTable('passkeys')
  await queryInterface.removeColumn('users', 'passkeyCount')
}
