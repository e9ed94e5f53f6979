import { DataTypes } from 'sequelize'
import type { Migration } from './types.js'

/** The language a user chose for the app's pages, messages and mail; null follows the browser's. */
export const up: Migration = async ({ context: queryInterface }) => {
  await queryInterface.addColumn('users', 'locale', { type: DataTypes.STRING(16), allowNull: true, defaultValue: null })
}

export const down: Migration = async ({ context: queryInterface }) => {
  await queryInterface.removeColumn('users', 'locale')
}
