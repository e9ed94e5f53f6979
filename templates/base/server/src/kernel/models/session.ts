import { DataTypes, Model, type CreationOptional, type InferAttributes, type InferCreationAttributes, type Sequelize } from 'sequelize'

/**
 * One sign-in: the family of refresh tokens a login (or a completed second factor) started,
 * with what the sessions page shows of it. Its id is the family's, and the access token's `sid`.
 */
export class Session extends Model<InferAttributes<Session>, InferCreationAttributes<Session>> {
  declare id: string
  declare userId: number | null
  declare remember: boolean
  declare ip: string | null
  declare userAgent: string | null
  declare createdAt: Date
  declare lastUsedAt: Date
  /** The family's absolute expiry (every refresh token of the session dies with it). */
  declare expiresAt: Date
  declare revokedAt: CreationOptional<Date | null>
  /** The first factor that started it (`password`, `passkey:<id>`, `provider:<name>`): removing that ends it. */
  declare signedInWith: CreationOptional<string | null>
  /** Step-up: until when its person has confirmed it is them (kernel/security/confirmation.ts). */
  declare confirmedUntil: CreationOptional<Date | null>
  /** Impersonation: the admin who started this session as its user, and the admin's own session to return to. */
  declare impersonatorId: CreationOptional<number | null>
  declare impersonatorSessionId: CreationOptional<string | null>

  static initModel(sequelize: Sequelize): void {
    Session.init(
      {
        id: { type: DataTypes.STRING(64), primaryKey: true },
        userId: { type: DataTypes.INTEGER, allowNull: true },
        remember: { type: DataTypes.BOOLEAN, allowNull: false, defaultValue: false },
        ip: { type: DataTypes.STRING(45), allowNull: true },
        userAgent: { type: DataTypes.STRING(512), allowNull: true },
        createdAt: { type: DataTypes.DATE, allowNull: false },
        lastUsedAt: { type: DataTypes.DATE, allowNull: false },
        expiresAt: { type: DataTypes.DATE, allowNull: false },
        revokedAt: { type: DataTypes.DATE, allowNull: true, defaultValue: null },
        signedInWith: { type: DataTypes.STRING(100), allowNull: true, defaultValue: null },
        confirmedUntil: { type: DataTypes.DATE, allowNull: true, defaultValue: null },
        impersonatorId: { type: DataTypes.INTEGER, allowNull: true, defaultValue: null },
        impersonatorSessionId: { type: DataTypes.STRING(64), allowNull: true, defaultValue: null },
      },
      { sequelize, tableName: 'sessions', modelName: 'Session', timestamps: false },
    )
  }
}
