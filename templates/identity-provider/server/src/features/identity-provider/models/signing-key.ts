import { DataTypes, Model, type CreationOptional, type InferAttributes, type InferCreationAttributes, type Sequelize } from 'sequelize'

/**
 * A key the provider signs ID and access tokens with. The newest key of each algorithm signs; a
 * retired one stays published in the JWKS until every token it signed has expired.
 */
export class SigningKey extends Model<InferAttributes<SigningKey>, InferCreationAttributes<SigningKey>> {
  declare id: CreationOptional<number>
  declare kid: string
  /** `ES256` or `RS256`. */
  declare alg: string
  /** The private JWK, JSON, sealed with ENCRYPTION_KEY. */
  declare privateJwk: string
  /** When a newer key took over its signing; null while it signs. */
  declare retiredAt: CreationOptional<Date | null>
  declare createdAt: CreationOptional<Date>
  declare updatedAt: CreationOptional<Date>

  static initModel(sequelize: Sequelize): void {
    SigningKey.init(
      {
        id: { type: DataTypes.INTEGER, autoIncrement: true, primaryKey: true },
        kid: { type: DataTypes.STRING(64), allowNull: false, unique: true },
        alg: { type: DataTypes.STRING(10), allowNull: false },
        privateJwk: { type: DataTypes.TEXT, allowNull: false },
        retiredAt: { type: DataTypes.DATE, allowNull: true },
        createdAt: DataTypes.DATE,
        updatedAt: DataTypes.DATE,
      },
      { sequelize, tableName: 'oauth_signing_keys', modelName: 'SigningKey' },
    )
  }
}
