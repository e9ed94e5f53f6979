import { DataTypes } from 'sequelize'
import { type Migration, tableOptions } from '../../../kernel/index.js'

/** API keys: one row per key, found by its public lookup id, gone with its user. */
export const up: Migration = async ({ context: queryInterface }) => {
  const dialect = queryInterface.sequelize.getDialect()
  // Lookup ids are case-sensitive (`a` and `A` differ): MySQL's default collation would take two
  // ids for one, in the unique index and in every lookup.
  const lookupId = dialect === 'mysql' || dialect === 'mariadb' ? 'VARCHAR(16) CHARACTER SET ascii COLLATE ascii_bin' : DataTypes.STRING(16)
  await queryInterface.createTable(
    'api_keys',
    {
      id: { type: DataTypes.INTEGER, autoIncrement: true, primaryKey: true, allowNull: false },
      userId: {
        type: DataTypes.INTEGER,
        allowNull: false,
        references: { model: 'users', key: 'id' },
        onDelete: 'CASCADE',
        onUpdate: 'CASCADE',
      },
      name: { type: DataTypes.STRING(100), allowNull: false },
      lookupId: { type: lookupId, allowNull: false },
      // The SHA-256 of the secret, hex: the key itself is never stored.
      secretHash: { type: DataTypes.STRING(64), allowNull: false },
      // JSON: ["read", "write", "admin"], a non-empty subset.
      scopes: { type: DataTypes.TEXT, allowNull: false },
      expiresAt: { type: DataTypes.DATE, allowNull: true },
      lastUsedAt: { type: DataTypes.DATE, allowNull: true },
      lastUsedIp: { type: DataTypes.STRING(45), allowNull: true },
      revokedAt: { type: DataTypes.DATE, allowNull: true },
      createdAt: { type: DataTypes.DATE, allowNull: false },
      updatedAt: { type: DataTypes.DATE, allowNull: false },
    },
    tableOptions,
  )
  await queryInterface.addIndex('api_keys', ['lookupId'], { name: 'api_keys_lookup', unique: true })
  await queryInterface.addIndex('api_keys', ['userId'], { name: 'api_keys_user' })
}

export const down: Migration = async ({ context: queryInterface }) => {
  await queryInterface.dropTable('api_keys')
}
