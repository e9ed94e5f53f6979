import { DataTypes, Model, type CreationOptional, type InferAttributes, type InferCreationAttributes, type Sequelize } from 'sequelize'

/** A team's SCIM token, `scim_<lookupId>_<secret>`, of which only the lookup id and the secret's SHA-256 are kept. */
export class ScimToken extends Model<InferAttributes<ScimToken>, InferCreationAttributes<ScimToken>> {
  declare id: CreationOptional<number>
  declare teamId: number
  declare lookupId: string
  /** The SHA-256 of the secret, hex. */
  declare secretHash: string
  declare createdBy: number | null
  declare lastUsedAt: CreationOptional<Date | null>
  declare createdAt: CreationOptional<Date>
  declare updatedAt: CreationOptional<Date>

  static initModel(sequelize: Sequelize): void {
    ScimToken.init(
      {
        id: { type: DataTypes.INTEGER, autoIncrement: true, primaryKey: true },
        teamId: { type: DataTypes.INTEGER, allowNull: false },
        lookupId: { type: DataTypes.STRING(16), allowNull: false, unique: true },
        secretHash: { type: DataTypes.STRING(64), allowNull: false },
        createdBy: { type: DataTypes.INTEGER, allowNull: true },
        lastUsedAt: { type: DataTypes.DATE, allowNull: true },
        createdAt: DataTypes.DATE,
        updatedAt: DataTypes.DATE,
      },
      { sequelize, tableName: 'sso_scim_tokens', modelName: 'ScimToken' },
    )
  }
}
