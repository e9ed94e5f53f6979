import { DataTypes, Model, type CreationOptional, type InferAttributes, type InferCreationAttributes, type Sequelize } from 'sequelize'

/** A provider's account linked to a user: who signs in as the user when the provider vouches for `subject`. */
export class OAuthAccount extends Model<InferAttributes<OAuthAccount>, InferCreationAttributes<OAuthAccount>> {
  declare id: CreationOptional<number>
  declare userId: number
  declare provider: string
  /** The provider's stable id of its user (`sub`, GitHub's numeric id): never the e-mail, which changes. */
  declare subject: string
  /** The address the provider gave when linked, shown in settings; not used to find anyone. */
  declare email: string | null
  declare createdAt: CreationOptional<Date>

  static initModel(sequelize: Sequelize): void {
    OAuthAccount.init(
      {
        id: { type: DataTypes.INTEGER, autoIncrement: true, primaryKey: true },
        userId: { type: DataTypes.INTEGER, allowNull: false },
        provider: { type: DataTypes.STRING(32), allowNull: false },
        subject: { type: DataTypes.STRING(255), allowNull: false },
        email: { type: DataTypes.STRING(255), allowNull: true },
        createdAt: DataTypes.DATE,
      },
      { sequelize, tableName: 'oauth_accounts', modelName: 'OAuthAccount', updatedAt: false },
    )
  }
}
