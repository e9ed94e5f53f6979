import { DataTypes } from 'sequelize'
import type { Migration } from '../../../db/migrations/types.js'

/**
 * Team keys (the API-keys layer with teams): a key may belong to a team, acting there with at most
 * its `role`. Gone with its team, as it is with its maker (the user column's cascade).
 */
export const up: Migration = async ({ context: queryInterface }) => {
  await queryInterface.addColumn('api_keys', 'teamId', {
    type: DataTypes.INTEGER,
    allowNull: true,
    references: { model: 'teams', key: 'id' },
    onDelete: 'CASCADE',
    onUpdate: 'CASCADE',
  })
  await queryInterface.addColumn('api_keys', 'role', { type: DataTypes.STRING(16), allowNull: true })
  await queryInterface.addIndex('api_keys', ['teamId'], { name: 'api_keys_team' })
}

export const down: Migration = async ({ context: queryInterface }) => {
  const dialect = queryInterface.sequelize.getDialect()
  // MySQL keeps the foreign key on the index: the key goes first, by the name MySQL gave it.
  if (dialect === 'mysql' || dialect === 'mariadb') {
    const references = (await queryInterface.getForeignKeyReferencesForTable('api_keys')) as { columnName?: string; constraintName?: string }[]
    for (const reference of references) {
      if (reference.columnName === 'teamId' && reference.constraintName) await queryInterface.removeConstraint('api_keys', reference.constraintName)
    }
  }
  await queryInterface.removeIndex('api_keys', 'api_keys_team')
  await queryInterface.removeColumn('api_keys', 'role')
  await queryInterface.removeColumn('api_keys', 'teamId')
}
