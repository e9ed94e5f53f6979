import { DataTypes, Model, type CreationOptional, type InferAttributes, type InferCreationAttributes, type Sequelize } from 'sequelize'

/**
 * A login that passed its password step and waits for the second factor. The id is the SHA-256
 * of the token in the `{name}_2fa` cookie; `remember` is the choice made at the password step.
 */
export class TwoFactorChallenge extends Model<InferAttributes<TwoFactorChallenge>, InferCreationAttributes<TwoFactorChallenge>> {
  declare id: string
  declare userId: number
  declare remember: boolean
  /** The first factor that led here, as the session it starts will keep it (kernel/auth/sign-in.ts). */
  declare factor: CreationOptional<string>
  /** Codes tried so far, counted before each is checked. */
  declare attempts: CreationOptional<number>
  declare expiresAt: Date
  declare createdAt: CreationOptional<Date>

  static initModel(sequelize: Sequelize): void {
    TwoFactorChallenge.init(
      {
        id: { type: DataTypes.STRING(64), primaryKey: true },
        userId: { type: DataTypes.INTEGER, allowNull: false },
        remember: { type: DataTypes.BOOLEAN, allowNull: false, defaultValue: false },
        factor: { type: DataTypes.STRING(100), allowNull: false, defaultValue: 'password' },
        attempts: { type: DataTypes.INTEGER, allowNull: false, defaultValue: 0 },
        expiresAt: { type: DataTypes.DATE, allowNull: false },
        createdAt: DataTypes.DATE,
      },
      { sequelize, tableName: 'two_factor_challenges', modelName: 'TwoFactorChallenge', updatedAt: false },
    )
  }
}
