import { DataTypes, Model, type CreationOptional, type InferAttributes, type InferCreationAttributes, type Sequelize } from 'sequelize'

/**
 * A code mailed to confirm it's you (step-up), good for the one session that asked: a newer one,
 * its use, and every event that ends the account's sessions delete it.
 */
export class EmailConfirmCode extends Model<InferAttributes<EmailConfirmCode>, InferCreationAttributes<EmailConfirmCode>> {
  declare id: CreationOptional<number>
  declare userId: number
  declare sessionId: string
  /** HMAC of the code (services/codes.ts). */
  declare codeHash: string
  declare attempts: CreationOptional<number>
  declare expiresAt: Date
  declare createdAt: CreationOptional<Date>

  static initModel(sequelize: Sequelize): void {
    EmailConfirmCode.init(
      {
        id: { type: DataTypes.INTEGER, autoIncrement: true, primaryKey: true },
        userId: { type: DataTypes.INTEGER, allowNull: false },
        sessionId: { type: DataTypes.STRING(64), allowNull: false },
        codeHash: { type: DataTypes.STRING(64), allowNull: false },
        attempts: { type: DataTypes.INTEGER, allowNull: false, defaultValue: 0 },
        expiresAt: { type: DataTypes.DATE, allowNull: false },
        createdAt: DataTypes.DATE,
      },
      { sequelize, tableName: 'email_confirm_codes', modelName: 'EmailConfirmCode', updatedAt: false },
    )
  }
}
