import { DataTypes } from 'sequelize'
import { tableOptions, type Migration } from './types.js'

export const up: Migration = async ({ context: queryInterface }) => {
  await queryInterface.createTable(
    'users',
    {
      id: { type: DataTypes.INTEGER, autoIncrement: true, primaryKey: true, allowNull: false },
      name: { type: DataTypes.STRING(255), allowNull: false },
      email: { type: DataTypes.STRING(255), allowNull: false, unique: true },
      password: { type: DataTypes.TEXT, allowNull: false },
      roleId: {
        type: DataTypes.INTEGER,
        allowNull: true,
        references: { model: 'roles', key: 'id' },
        onDelete: 'SET NULL',
        onUpdate: 'CASCADE',
      },
      emailVerifiedAt: { type: DataTypes.DATE, allowNull: true },
      createdAt: { type: DataTypes.DATE, allowNull: false },
      updatedAt: { type: DataTypes.DATE, allowNull: false },
    },
    tableOptions,
  )
}

export const down: Migration = async ({ context: queryInterface }) => {
  await queryInterface.dropTable('users')
}
