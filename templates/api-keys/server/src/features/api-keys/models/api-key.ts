import { DataTypes, Model, type CreationOptional, type InferAttributes, type InferCreationAttributes, type Sequelize } from 'sequelize'

/**
 * An API key of one user: `cca_<lookupId>_<secret>`, of which only the lookup id and the SHA-256
 * of the secret are kept. A revoked key keeps its row (`revokedAt`) and is never listed again.
 */
export class ApiKey extends Model<InferAttributes<ApiKey>, InferCreationAttributes<ApiKey>> {
  declare id: CreationOptional<number>
  declare userId: number
  declare name: string
  /** The public part of the key (its `prefix` is `cca_<lookupId>`): how a request finds the row. */
  declare lookupId: string
  /** The SHA-256 of the secret, hex. */
  declare secretHash: string
  /** JSON: a non-empty list of `read`, `write`, `admin`. */
  declare scopes: string
  declare expiresAt: Date | null
  declare lastUsedAt: CreationOptional<Date | null>
  declare lastUsedIp: CreationOptional<string | null>
  declare revokedAt: CreationOptional<Date | null>
  declare createdAt: CreationOptional<Date>
  declare updatedAt: CreationOptional<Date>

  static initModel(sequelize: Sequelize): void {
    ApiKey.init(
      {
        id: { type: DataTypes.INTEGER, autoIncrement: true, primaryKey: true },
        userId: { type: DataTypes.INTEGER, allowNull: false },
        name: { type: DataTypes.STRING(100), allowNull: false },
        lookupId: { type: DataTypes.STRING(16), allowNull: false, unique: true },
        secretHash: { type: DataTypes.STRING(64), allowNull: false },
        scopes: { type: DataTypes.TEXT, allowNull: false },
        expiresAt: { type: DataTypes.DATE, allowNull: true },
        lastUsedAt: { type: DataTypes.DATE, allowNull: true },
        lastUsedIp: { type: DataTypes.STRING(45), allowNull: true },
        revokedAt: { type: DataTypes.DATE, allowNull: true },
        createdAt: DataTypes.DATE,
        updatedAt: DataTypes.DATE,
      },
      { sequelize, tableName: 'api_keys', modelName: 'ApiKey' },
    )
  }
}
