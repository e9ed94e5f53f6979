import { Op } from 'sequelize'
import { z } from 'zod'
import { paginated, type Paginated } from '../http/paginated.js'
import { pageQuery, sizeQuery } from '../http/schemas.js'
import { SecurityEvent } from '../models/index.js'
import { deviceOf } from '../auth/sessions.js'
import { KNOWN_FOR_MS } from './new-device.js'

/** The query of every activity list (an account's, a user's for admins, a team's). */
export const activityQuery = z.object({ page: pageQuery, size: sizeQuery })

export interface ActivityJson {
  id: number
  type: string
  ip: string | null
  device: string
  createdAt: string
  /** The event belongs to the session asking. */
  current: boolean
  /** The admin who was signed in as the user when it happened (impersonation), else null. */
  impersonatorId: number | null
}

/** A user's events, newest first, in the paginated shape every list of the API has. */
export async function activityPage(userId: number, page: number, size: number, path: string, currentSessionId: string | undefined): Promise<Paginated<ActivityJson>> {
  const { rows, count } = await SecurityEvent.findAndCountAll({
    where: { userId },
    order: [['createdAt', 'DESC'], ['id', 'DESC']],
    limit: size,
    offset: (page - 1) * size,
  })
  const events = rows.map((row) => ({
    id: row.id,
    type: row.type,
    ip: row.ip,
    // Older rows may hold an agent's free text: the line is rebuilt from known names.
    device: deviceOf(row.userAgent),
    createdAt: row.createdAt.toISOString(),
    current: currentSessionId !== undefined && row.sessionId === currentSessionId,
    impersonatorId: row.impersonatorId,
  }))
  return paginated(events, count, page, size, path)
}

/** The job `security:prune-events`: events are kept 90 days. */
export async function pruneSecurityEvents(now = Date.now()): Promise<number> {
  return SecurityEvent.destroy({ where: { createdAt: { [Op.lt]: new Date(now - KNOWN_FOR_MS) } } })
}
