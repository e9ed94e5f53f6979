import { DataTypes } from 'sequelize'
import { tableOptions, type Migration } from './types.js'

export const up: Migration = async ({ context: queryInterface }) => {
  await queryInterface.createTable(
    'roles',
    {
      id: { type: DataTypes.INTEGER, autoIncrement: true, primaryKey: true, allowNull: false },
      name: { type: DataTypes.STRING(255), allowNull: false, unique: true },
      createdAt: { type: DataTypes.DATE, allowNull: false },
      updatedAt: { type: DataTypes.DATE, allowNull: false },
    },
    tableOptions,
  )
  const now = new Date()
  await queryInterface.bulkInsert('roles', [
    { name: 'admin', createdAt: now, updatedAt: now },
    { name: 'user', createdAt: now, updatedAt: now },
  ])
}

export const down: Migration = async ({ context: queryInterface }) => {
  await queryInterface.dropTable('roles')
}
