import { DataTypes, Model, type CreationOptional, type InferAttributes, type InferCreationAttributes, type Sequelize } from 'sequelize'

/** Where an admin has the app's events sent (webhooks/). */
export class WebhookEndpoint extends Model<InferAttributes<WebhookEndpoint>, InferCreationAttributes<WebhookEndpoint>> {
  declare id: CreationOptional<number>
  declare url: string
  /** JSON list of event types and patterns (`*`, `team.*`). */
  declare events: string
  /** The `whsec_…` signing secret, sealed (kernel/security/encryption.ts): never stored as it is. */
  declare secret: string
  /** Failed attempts in a row; enough of them pause the endpoint (kernel/webhooks/breaker.ts). */
  declare failureStreak: CreationOptional<number>
  /** Set while paused: since when, until when its next attempt (a probe) waits, and why. */
  declare pausedAt: CreationOptional<Date | null>
  declare pausedUntil: CreationOptional<Date | null>
  declare pauseReason: CreationOptional<string | null>
  declare createdAt: CreationOptional<Date>
  declare updatedAt: CreationOptional<Date>

  static initModel(sequelize: Sequelize): void {
    WebhookEndpoint.init(
      {
        id: { type: DataTypes.INTEGER, autoIncrement: true, primaryKey: true },
        url: { type: DataTypes.STRING(2048), allowNull: false },
        events: { type: DataTypes.TEXT, allowNull: false },
        secret: { type: DataTypes.STRING(255), allowNull: false },
        failureStreak: { type: DataTypes.INTEGER, allowNull: false, defaultValue: 0 },
        pausedAt: { type: DataTypes.DATE, allowNull: true, defaultValue: null },
        pausedUntil: { type: DataTypes.DATE, allowNull: true, defaultValue: null },
        pauseReason: { type: DataTypes.STRING(255), allowNull: true, defaultValue: null },
        createdAt: DataTypes.DATE,
        updatedAt: DataTypes.DATE,
      },
      { sequelize, tableName: 'webhook_endpoints', modelName: 'WebhookEndpoint' },
    )
  }
}
