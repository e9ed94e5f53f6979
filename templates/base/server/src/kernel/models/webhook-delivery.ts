import { DataTypes, Model, type CreationOptional, type InferAttributes, type InferCreationAttributes, type Sequelize } from 'sequelize'

export type DeliveryStatus = 'pending' | 'retrying' | 'delivered' | 'failed'

/** One message to one endpoint, and how its attempts went: the endpoint's delivery log. */
export class WebhookDelivery extends Model<InferAttributes<WebhookDelivery>, InferCreationAttributes<WebhookDelivery>> {
  declare id: CreationOptional<number>
  declare endpointId: number
  /** The `webhook-id` header: the same on every attempt, so a receiver can drop a repeat. */
  declare messageId: string
  declare event: string
  /** The body sent, the same on every attempt; null once the delivery is over. */
  declare payload: string | null
  declare status: DeliveryStatus
  declare attempts: CreationOptional<number>
  declare responseStatus: CreationOptional<number | null>
  /** Why the last attempt failed, in a few words (a timeout, a refused address). */
  declare error: CreationOptional<string | null>
  declare createdAt: Date
  declare deliveredAt: CreationOptional<Date | null>

  static initModel(sequelize: Sequelize): void {
    WebhookDelivery.init(
      {
        id: { type: DataTypes.INTEGER, autoIncrement: true, primaryKey: true },
        endpointId: { type: DataTypes.INTEGER, allowNull: false },
        messageId: { type: DataTypes.STRING(64), allowNull: false },
        event: { type: DataTypes.STRING(64), allowNull: false },
        payload: { type: DataTypes.TEXT, allowNull: true },
        status: { type: DataTypes.STRING(16), allowNull: false },
        attempts: { type: DataTypes.INTEGER, allowNull: false, defaultValue: 0 },
        responseStatus: { type: DataTypes.INTEGER, allowNull: true, defaultValue: null },
        error: { type: DataTypes.STRING(255), allowNull: true, defaultValue: null },
        createdAt: { type: DataTypes.DATE, allowNull: false },
        deliveredAt: { type: DataTypes.DATE, allowNull: true, defaultValue: null },
      },
      { sequelize, tableName: 'webhook_deliveries', modelName: 'WebhookDelivery', timestamps: false },
    )
  }
}
