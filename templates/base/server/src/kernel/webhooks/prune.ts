import { Op } from 'sequelize'
import { WebhookDelivery } from '../models/index.js'

/** How long the delivery log keeps a message that is over (delivered, or given up after about a day). */
export const DELIVERY_LOG_DAYS = 30

/** Part of the hourly pruning job (kernel/jobs/handlers.ts). */
export async function pruneWebhookDeliveries(now = Date.now()): Promise<void> {
  await WebhookDelivery.destroy({ where: { createdAt: { [Op.lt]: new Date(now - DELIVERY_LOG_DAYS * 86_400_000) }, status: ['delivered', 'failed'] } })
}
