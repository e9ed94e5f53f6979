import { DataTypes, Model, type CreationOptional, type InferAttributes, type InferCreationAttributes, type Sequelize } from 'sequelize'

/**
 * Shape shared by e-mail verification and password reset records: only the SHA-256 of the
 * token is kept, so a database leak yields no usable link.
 */
export abstract class OneTimeToken extends Model<InferAttributes<OneTimeToken>, InferCreationAttributes<OneTimeToken>> {
  declare id: CreationOptional<number>
  declare userId: number
  declare tokenHash: string
  declare expiresAt: Date
  declare createdAt: CreationOptional<Date>
}

export function oneTimeTokenAttributes() {
  return {
    id: { type: DataTypes.INTEGER, autoIncrement: true, primaryKey: true },
    userId: { type: DataTypes.INTEGER, allowNull: false },
    tokenHash: { type: DataTypes.STRING(64), allowNull: false, unique: true },
    expiresAt: { type: DataTypes.DATE, allowNull: false },
    createdAt: DataTypes.DATE,
  }
}

export class EmailVerificationToken extends OneTimeToken {
  static initModel(sequelize: Sequelize): void {
    EmailVerificationToken.init(oneTimeTokenAttributes(), {
      sequelize,
      tableName: 'email_verification_tokens',
      modelName: 'EmailVerificationToken',
      updatedAt: false,
    })
  }
}

export class PasswordResetToken extends OneTimeToken {
  static initModel(sequelize: Sequelize): void {
    PasswordResetToken.init(oneTimeTokenAttributes(), {
      sequelize,
      tableName: 'password_reset_tokens',
      modelName: 'PasswordResetToken',
      updatedAt: false,
    })
  }
}
