import { DataTypes, Model, type CreationOptional, type InferAttributes, type InferCreationAttributes, type Sequelize } from 'sequelize'

/**
 * A client an admin registered, or that registered itself (RFC 7591): who may ask people for
 * access (a CLI, another app, an agent).
 * A confidential client's secret is kept as its SHA-256 only (services/client-secrets.ts).
 */
export class OAuthClient extends Model<InferAttributes<OAuthClient>, InferCreationAttributes<OAuthClient>> {
  declare id: CreationOptional<number>
  /** The public `client_id`. */
  declare clientId: string
  declare name: string
  /** Holds a secret (a server); a public client (a CLI, a single-page or native app) holds none. */
  declare confidential: boolean
  /** SHA-256 (hex) of the secret; null for a public client. */
  declare secretHash: string | null
  /** JSON: the exact redirect URIs. */
  declare redirectUris: string
  /** JSON: `authorization_code`, `refresh_token`, `client_credentials`, the device code's. */
  declare grantTypes: string
  /** JSON: the scopes it may ask for. */
  declare scopes: string
  /** Null for a client that registered itself. */
  declare createdBy: number | null
  /** Registered by itself (RFC 7591), not by an admin: always public. */
  declare dynamic: CreationOptional<boolean>
  declare createdAt: CreationOptional<Date>
  declare updatedAt: CreationOptional<Date>

  static initModel(sequelize: Sequelize): void {
    OAuthClient.init(
      {
        id: { type: DataTypes.INTEGER, autoIncrement: true, primaryKey: true },
        clientId: { type: DataTypes.STRING(64), allowNull: false, unique: true },
        name: { type: DataTypes.STRING(100), allowNull: false },
        confidential: { type: DataTypes.BOOLEAN, allowNull: false },
        secretHash: { type: DataTypes.STRING(64), allowNull: true },
        redirectUris: { type: DataTypes.TEXT, allowNull: false },
        grantTypes: { type: DataTypes.TEXT, allowNull: false },
        scopes: { type: DataTypes.TEXT, allowNull: false },
        createdBy: { type: DataTypes.INTEGER, allowNull: true },
        dynamic: { type: DataTypes.BOOLEAN, allowNull: false, defaultValue: false },
        createdAt: DataTypes.DATE,
        updatedAt: DataTypes.DATE,
      },
      { sequelize, tableName: 'oauth_clients', modelName: 'OAuthClient' },
    )
  }
}
