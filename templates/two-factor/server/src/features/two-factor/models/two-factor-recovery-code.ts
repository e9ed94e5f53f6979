import { DataTypes, Model, type CreationOptional, type InferAttributes, type InferCreationAttributes, type Sequelize } from 'sequelize'

/** One unused recovery code of a user, as its SHA-256; using it deletes the row. */
export class TwoFactorRecoveryCode extends Model<InferAttributes<TwoFactorRecoveryCode>, InferCreationAttributes<TwoFactorRecoveryCode>> {
  declare id: CreationOptional<number>
  declare userId: number
  declare codeHash: string
  declare createdAt: CreationOptional<Date>

  static initModel(sequelize: Sequelize): void {
    TwoFactorRecoveryCode.init(
      {
        id: { type: DataTypes.INTEGER, autoIncrement: true, primaryKey: true },
        userId: { type: DataTypes.INTEGER, allowNull: false },
        codeHash: { type: DataTypes.STRING(64), allowNull: false },
        createdAt: DataTypes.DATE,
      },
      { sequelize, tableName: 'two_factor_recovery_codes', modelName: 'TwoFactorRecoveryCode', updatedAt: false },
    )
  }
}
