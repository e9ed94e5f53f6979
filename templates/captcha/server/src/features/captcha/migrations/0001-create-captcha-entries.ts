import { DataTypes } from 'sequelize'
import { tableOptions, type Migration } from '../../../db/migrations/types.js'

/** Cap's challenges and tokens in an app without Redis: one row each, found by the SHA-256 in its key. */
export const up: Migration = async ({ context: queryInterface }) => {
  await queryInterface.createTable(
    'captcha_entries',
    {
      key: { type: DataTypes.STRING(80), primaryKey: true, allowNull: false },
      data: { type: DataTypes.TEXT, allowNull: false },
      expiresAt: { type: DataTypes.BIGINT, allowNull: false },
    },
    tableOptions,
  )
  await queryInterface.addIndex('captcha_entries', ['expiresAt'], { name: 'captcha_entries_expires' })
}

export const down: Migration = async ({ context: queryInterface }) => {
  await queryInterface.dropTable('captcha_entries')
}
