import { DataTypes } from 'sequelize'
import { tableOptions, type Migration } from '../../../db/migrations/types.js'

/**
 * A team's SCIM tokens: what its identity provider sends to provision the team's members. Found
 * by the public lookup id; the secret is kept only as its SHA-256. Gone with the team, and a
 * revoked token's row goes at once (nothing points at it).
 */
export const up: Migration = async ({ context: queryInterface }) => {
  const dialect = queryInterface.sequelize.getDialect()
  // Lookup ids are case-sensitive: MySQL's default collation would take `a` and `A` for one.
  const lookupId = dialect === 'mysql' || dialect === 'mariadb' ? 'VARCHAR(16) CHARACTER SET ascii COLLATE ascii_bin' : DataTypes.STRING(16)
  await queryInterface.createTable(
    'sso_scim_tokens',
    {
      id: { type: DataTypes.INTEGER, autoIncrement: true, primaryKey: true, allowNull: false },
      teamId: {
        type: DataTypes.INTEGER,
        allowNull: false,
        references: { model: 'teams', key: 'id' },
        onDelete: 'CASCADE',
        onUpdate: 'CASCADE',
      },
      lookupId: { type: lookupId, allowNull: false },
      // The SHA-256 of the secret, hex: the token itself is never stored.
      secretHash: { type: DataTypes.STRING(64), allowNull: false },
      // Who made it: kept for the record when they leave (no foreign key holds the token to them).
      createdBy: { type: DataTypes.INTEGER, allowNull: true },
      lastUsedAt: { type: DataTypes.DATE, allowNull: true },
      createdAt: { type: DataTypes.DATE, allowNull: false },
      updatedAt: { type: DataTypes.DATE, allowNull: false },
    },
    tableOptions,
  )
  await queryInterface.addIndex('sso_scim_tokens', ['lookupId'], { name: 'sso_scim_tokens_lookup', unique: true })
  await queryInterface.addIndex('sso_scim_tokens', ['teamId'], { name: 'sso_scim_tokens_team' })
}

export const down: Migration = async ({ context: queryInterface }) => {
  await queryInterface.dropTable('sso_scim_tokens')
}
