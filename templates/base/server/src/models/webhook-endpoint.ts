import { DataTypes, Model, type CreationOptional, type InferAttributes, type InferCreationAttributes, type Sequelize } from 'sequelize'

/** Where an admin has the app's events sent (webhooks/). */
export class WebhookEndpoint extends Model<InferAttributes<WebhookEndpoint>, InferCreationAttributes<WebhookEndpoint>> {
  declare id: CreationOptional<number>
  declare url: string
  /** JSON list of event types and patterns (`*`, `team.*`). */
  declare events: string
  /** The `whsec_…` signing secret, sealed (security/encryption.ts): never stored as it is. */
  declare secret: string
  declare createdAt: CreationOptional<Date>
  declare updatedAt: CreationOptional<Date>

  static initModel(sequelize: Sequelize): void {
    WebhookEndpoint.init(
      {
        id: { type: DataTypes.INTEGER, autoIncrement: true, primaryKey: true },
        url: { type: DataTypes.STRING(2048), allowNull: false },
        events: { type: DataTypes.TEXT, allowNull: false },
        secret: { type: DataTypes.STRING(255), allowNull: false },
        createdAt: DataTypes.DATE,
        updatedAt: DataTypes.DATE,
      },
      { sequelize, tableName: 'webhook_endpoints', modelName: 'WebhookEndpoint' },
    )
  }
}
