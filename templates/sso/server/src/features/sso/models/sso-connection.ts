import { DataTypes, Model, type CreationOptional, type InferAttributes, type InferCreationAttributes, type Sequelize } from 'sequelize'

export const CONNECTION_TYPES = ['saml', 'oidc'] as const
export type ConnectionType = (typeof CONNECTION_TYPES)[number]

/** A team's identity provider; `settings` is JSON of the type's own shape (services/connections.ts). */
export class SsoConnection extends Model<InferAttributes<SsoConnection>, InferCreationAttributes<SsoConnection>> {
  declare id: CreationOptional<number>
  declare teamId: number
  declare type: ConnectionType
  declare settings: string
  declare defaultRole: string
  declare requireSso: boolean
  declare createdAt: CreationOptional<Date>
  declare updatedAt: CreationOptional<Date>

  static initModel(sequelize: Sequelize): void {
    SsoConnection.init(
      {
        id: { type: DataTypes.INTEGER, autoIncrement: true, primaryKey: true },
        teamId: { type: DataTypes.INTEGER, allowNull: false, unique: true },
        type: { type: DataTypes.STRING(8), allowNull: false },
        settings: { type: DataTypes.TEXT, allowNull: false },
        defaultRole: { type: DataTypes.STRING(16), allowNull: false },
        requireSso: { type: DataTypes.BOOLEAN, allowNull: false, defaultValue: false },
        createdAt: DataTypes.DATE,
        updatedAt: DataTypes.DATE,
      },
      { sequelize, tableName: 'sso_connections', modelName: 'SsoConnection' },
    )
  }
}
