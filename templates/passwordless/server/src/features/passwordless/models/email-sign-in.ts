import { DataTypes, Model, type CreationOptional, type InferAttributes, type InferCreationAttributes, type Sequelize } from 'sequelize'

/**
 * One sign-in mail: its link and its code, as hashes only, and the browser that asked. At most
 * one per address lives (a newer mail deletes the older row); using the link or the code deletes
 * it, and so does every event that ends the account's sessions.
 */
export class EmailSignIn extends Model<InferAttributes<EmailSignIn>, InferCreationAttributes<EmailSignIn>> {
  declare id: CreationOptional<number>
  /** The address the mail went to, in its normal form: the link works only while it is the account's. */
  declare email: string
  /** Null for an address without an account (a sign-up, with PASSWORDLESS_SIGN_UP on). */
  declare userId: number | null
  /** SHA-256 of the link's token. */
  declare tokenHash: string
  /** HMAC of the code (services/codes.ts); null once its wrong attempts are spent. */
  declare codeHash: string | null
  declare attempts: CreationOptional<number>
  /** SHA-256 of the token in the asking browser's cookie (services/binding.ts). */
  declare bindingHash: string
  /** "Remember me" as the asking page had it. */
  declare remember: boolean
  /** The link was opened on another device and confirmed there: the asking browser signs in on its next poll. */
  declare approvedAt: CreationOptional<Date | null>
  declare expiresAt: Date
  declare createdAt: CreationOptional<Date>

  static initModel(sequelize: Sequelize): void {
    EmailSignIn.init(
      {
        id: { type: DataTypes.INTEGER, autoIncrement: true, primaryKey: true },
        email: { type: DataTypes.STRING(255), allowNull: false },
        userId: { type: DataTypes.INTEGER, allowNull: true },
        tokenHash: { type: DataTypes.STRING(64), allowNull: false },
        codeHash: { type: DataTypes.STRING(64), allowNull: true },
        attempts: { type: DataTypes.INTEGER, allowNull: false, defaultValue: 0 },
        bindingHash: { type: DataTypes.STRING(64), allowNull: false },
        remember: { type: DataTypes.BOOLEAN, allowNull: false, defaultValue: false },
        approvedAt: { type: DataTypes.DATE, allowNull: true, defaultValue: null },
        expiresAt: { type: DataTypes.DATE, allowNull: false },
        createdAt: DataTypes.DATE,
      },
      { sequelize, tableName: 'email_sign_ins', modelName: 'EmailSignIn', updatedAt: false },
    )
  }
}
