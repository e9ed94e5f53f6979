import { Op } from 'sequelize'
import { SecurityEvent } from '../models/index.js'

/**
 * Whether the user's pending links were voided (an event ended sessions) since `acceptedAt`
 * (epoch ms): a mail job that looks the account up only as it runs, so that every address costs
 * the request the same, then mints nothing a request accepted earlier would have lost. MySQL's
 * DATETIME keeps whole seconds, rounded: there an event up to a second before counts too, which
 * errs on the side of sending nothing (the owner asks again).
 */
export async function linksVoidedSince(userId: number, acceptedAt: number): Promise<boolean> {
  const margin = SecurityEvent.sequelize!.getDialect() === 'mysql' ? 1000 : 0
  const since = new Date(acceptedAt - margin)
  return (await SecurityEvent.count({ where: { userId, revoking: true, createdAt: { [Op.gte]: since } } })) > 0
}
