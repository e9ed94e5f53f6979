import { DataTypes, Model, type CreationOptional, type InferAttributes, type InferCreationAttributes, type Sequelize } from 'sequelize'

/**
 * Columns shared by e-mail verification and password reset records: only the SHA-256 of the
 * token is kept, so a database leak yields no usable link.
 */
function oneTimeTokenAttributes() {
  return {
    id: { type: DataTypes.INTEGER, autoIncrement: true, primaryKey: true },
    userId: { type: DataTypes.INTEGER, allowNull: false },
    tokenHash: { type: DataTypes.STRING(64), allowNull: false, unique: true },
    expiresAt: { type: DataTypes.DATE, allowNull: false },
    createdAt: DataTypes.DATE,
  }
}

/**
 * A verification link. `email`: the address it was mailed to; it works only while that is the
 * account's. `name` and `password` (a bcrypt hash): the registration that asked for it, if one
 * did. `choose`: the link asks for a new password rather than setting the registration's.
 * `voidedAt`: the link no longer works, but the registration stays pending until it expires
 * (kernel/services/email-verification.ts).
 */
export class EmailVerificationToken extends Model<InferAttributes<EmailVerificationToken>, InferCreationAttributes<EmailVerificationToken>> {
  declare id: CreationOptional<number>
  declare userId: number
  declare tokenHash: string
  declare expiresAt: Date
  declare createdAt: CreationOptional<Date>
  declare email: string | null
  declare name: CreationOptional<string | null>
  declare password: CreationOptional<string | null>
  declare choose: CreationOptional<boolean>
  declare voidedAt: CreationOptional<Date | null>

  static initModel(sequelize: Sequelize): void {
    EmailVerificationToken.init(
      {
        ...oneTimeTokenAttributes(),
        email: { type: DataTypes.STRING(255), allowNull: true },
        name: { type: DataTypes.STRING(255), allowNull: true },
        password: { type: DataTypes.TEXT, allowNull: true },
        choose: { type: DataTypes.BOOLEAN, allowNull: false, defaultValue: false },
        voidedAt: { type: DataTypes.DATE, allowNull: true, defaultValue: null },
      },
      { sequelize, tableName: 'email_verification_tokens', modelName: 'EmailVerificationToken', updatedAt: false },
    )
  }
}

/** A reset link; `email`: the address it was mailed to, which must still be the account's. */
export class PasswordResetToken extends Model<InferAttributes<PasswordResetToken>, InferCreationAttributes<PasswordResetToken>> {
  declare id: CreationOptional<number>
  declare userId: number
  declare tokenHash: string
  declare expiresAt: Date
  declare createdAt: CreationOptional<Date>
  declare email: string | null

  static initModel(sequelize: Sequelize): void {
    PasswordResetToken.init({ ...oneTimeTokenAttributes(), email: { type: DataTypes.STRING(255), allowNull: true } }, {
      sequelize,
      tableName: 'password_reset_tokens',
      modelName: 'PasswordResetToken',
      updatedAt: false,
    })
  }
}

/**
 * A pending e-mail change: `email` is the new address, which the token was mailed to. The request
 * makes the row with an `unsent:` placeholder that no token hashes to; its mail job sets the hash
 * (kernel/services/email-change.ts).
 */
export class EmailChangeToken extends Model<InferAttributes<EmailChangeToken>, InferCreationAttributes<EmailChangeToken>> {
  declare id: CreationOptional<number>
  declare userId: number
  declare tokenHash: string
  declare expiresAt: Date
  declare createdAt: CreationOptional<Date>
  declare email: string

  static initModel(sequelize: Sequelize): void {
    EmailChangeToken.init(
      { ...oneTimeTokenAttributes(), email: { type: DataTypes.STRING(255), allowNull: false } },
      { sequelize, tableName: 'email_change_tokens', modelName: 'EmailChangeToken', updatedAt: false },
    )
  }
}

export type OneTimeToken = EmailVerificationToken | PasswordResetToken | EmailChangeToken
