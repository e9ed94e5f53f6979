import { DataTypes, Model, type CreationOptional, type InferAttributes, type InferCreationAttributes, type Sequelize } from 'sequelize'

/**
 * One row per issued refresh token. Beyond the usual columns: `family` chains the tokens of one
 * login, `replacedBy` names the successor a rotation created and `revokedAt` dates the
 * revocation, which together drive reuse detection and the grace window.
 */
export class RefreshToken extends Model<InferAttributes<RefreshToken>, InferCreationAttributes<RefreshToken>> {
  declare id: CreationOptional<number>
  declare userId: number | null
  declare jti: string
  declare family: string
  declare revoked: CreationOptional<boolean>
  declare revokedAt: CreationOptional<Date | null>
  declare replacedBy: CreationOptional<string | null>
  /** The family's absolute expiry: every token of a login shares it, so rotation never extends a session. */
  declare expiresAt: Date
  declare createdAt: CreationOptional<Date>

  static initModel(sequelize: Sequelize): void {
    RefreshToken.init(
      {
        id: { type: DataTypes.INTEGER, autoIncrement: true, primaryKey: true },
        userId: { type: DataTypes.INTEGER, allowNull: true },
        jti: { type: DataTypes.STRING(191), allowNull: false, unique: true },
        family: { type: DataTypes.STRING(64), allowNull: false },
        revoked: { type: DataTypes.BOOLEAN, allowNull: false, defaultValue: false },
        revokedAt: { type: DataTypes.DATE, allowNull: true, defaultValue: null },
        replacedBy: { type: DataTypes.STRING(191), allowNull: true, defaultValue: null },
        expiresAt: { type: DataTypes.DATE, allowNull: false },
        createdAt: DataTypes.DATE,
      },
      { sequelize, tableName: 'refresh_tokens', modelName: 'RefreshToken', updatedAt: false },
    )
  }
}
