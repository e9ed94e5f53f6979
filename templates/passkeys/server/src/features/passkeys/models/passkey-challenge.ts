import { DataTypes, Model, type CreationOptional, type InferAttributes, type InferCreationAttributes, type Sequelize } from 'sequelize'

export type CeremonyPurpose = 'register' | 'sign_in' | 'confirm'

/**
 * A passkey ceremony under way: the SHA-256 of its challenge, for one use within its lifetime.
 * A registration belongs to a user and a session; a sign-in to nobody yet (its challenge rides
 * in the `{name}_webauthn` cookie).
 */
export class PasskeyChallenge extends Model<InferAttributes<PasskeyChallenge>, InferCreationAttributes<PasskeyChallenge>> {
  declare id: string
  declare purpose: CeremonyPurpose
  declare userId: number | null
  declare sessionId: string | null
  declare expiresAt: Date
  declare createdAt: CreationOptional<Date>

  static initModel(sequelize: Sequelize): void {
    PasskeyChallenge.init(
      {
        id: { type: DataTypes.STRING(64), primaryKey: true },
        purpose: { type: DataTypes.STRING(16), allowNull: false },
        userId: { type: DataTypes.INTEGER, allowNull: true },
        sessionId: { type: DataTypes.STRING(64), allowNull: true },
        expiresAt: { type: DataTypes.DATE, allowNull: false },
        createdAt: DataTypes.DATE,
      },
      { sequelize, tableName: 'passkey_challenges', modelName: 'PasskeyChallenge', updatedAt: false },
    )
  }
}
