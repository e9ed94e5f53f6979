import { Op } from 'sequelize'
import { SecurityEvent } from '../models/index.js'

/**
 * Where the request may not look the account up (every address gets the same work), it notes
 * the newest security event when it was accepted; the mail job, which looks the account up,
 * then mints nothing if an event of that user ended its sessions since. Event ids, not times:
 * MySQL keeps whole seconds, and a reset asked for just after signing out was taken for one
 * asked before it.
 */
export async function newestEventId(): Promise<number> {
  return (await SecurityEvent.max<number, SecurityEvent>('id')) ?? 0
}

/** Whether the user's pending links were voided (an event ended sessions) after event `eventsUpTo`. */
export async function linksVoidedSince(userId: number, eventsUpTo: number): Promise<boolean> {
  return (await SecurityEvent.count({ where: { userId, revoking: true, id: { [Op.gt]: eventsUpTo } } })) > 0
}
