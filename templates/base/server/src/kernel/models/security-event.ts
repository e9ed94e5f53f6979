import { DataTypes, Model, type CreationOptional, type InferAttributes, type InferCreationAttributes, type Sequelize } from 'sequelize'

/** One credential event of an account (kernel/security/credential-events.ts writes them, and only it). */
export class SecurityEvent extends Model<InferAttributes<SecurityEvent>, InferCreationAttributes<SecurityEvent>> {
  declare id: CreationOptional<number>
  declare userId: number | null
  declare type: string
  declare sessionId: string | null
  declare ip: string | null
  declare userAgent: string | null
  /** "Chrome on Linux": what the activity page shows and the new-device rule compares. */
  declare device: string | null
  /** The address's /24 (IPv4) or /48 (IPv6). */
  declare network: string | null
  /** JSON. */
  declare meta: string | null
  /** The event ended sessions, and with them the user's pending links. */
  declare revoking: CreationOptional<boolean>
  /** The admin who was signed in as the user when it happened (impersonation); null otherwise. */
  declare impersonatorId: CreationOptional<number | null>
  declare createdAt: Date

  static initModel(sequelize: Sequelize): void {
    SecurityEvent.init(
      {
        id: { type: DataTypes.INTEGER, autoIncrement: true, primaryKey: true },
        userId: { type: DataTypes.INTEGER, allowNull: true },
        type: { type: DataTypes.STRING(64), allowNull: false },
        sessionId: { type: DataTypes.STRING(64), allowNull: true },
        ip: { type: DataTypes.STRING(45), allowNull: true },
        userAgent: { type: DataTypes.STRING(512), allowNull: true },
        device: { type: DataTypes.STRING(255), allowNull: true },
        network: { type: DataTypes.STRING(64), allowNull: true },
        meta: { type: DataTypes.TEXT, allowNull: true },
        revoking: { type: DataTypes.BOOLEAN, allowNull: false, defaultValue: false },
        impersonatorId: { type: DataTypes.INTEGER, allowNull: true, defaultValue: null },
        createdAt: { type: DataTypes.DATE, allowNull: false },
      },
      { sequelize, tableName: 'security_events', modelName: 'SecurityEvent', timestamps: false },
    )
  }
}
