import { DataTypes, Model, type CreationOptional, type InferAttributes, type InferCreationAttributes, type Sequelize } from 'sequelize'

/**
 * A provider sign-in or link under way: the SHA-256 of its `state`, good once within its
 * lifetime, so a replayed answer finds nothing, whichever instance it reaches. A link belongs
 * to a user and the session that asked; a sign-in to nobody yet.
 */
export class OAuthFlow extends Model<InferAttributes<OAuthFlow>, InferCreationAttributes<OAuthFlow>> {
  declare id: string
  declare provider: string
  declare userId: number | null
  declare sessionId: string | null
  declare expiresAt: Date
  declare createdAt: CreationOptional<Date>

  static initModel(sequelize: Sequelize): void {
    OAuthFlow.init(
      {
        id: { type: DataTypes.STRING(64), primaryKey: true },
        provider: { type: DataTypes.STRING(32), allowNull: false },
        userId: { type: DataTypes.INTEGER, allowNull: true },
        sessionId: { type: DataTypes.STRING(64), allowNull: true },
        expiresAt: { type: DataTypes.DATE, allowNull: false },
        createdAt: DataTypes.DATE,
      },
      { sequelize, tableName: 'oauth_flows', modelName: 'OAuthFlow', updatedAt: false },
    )
  }
}
