import { Op } from 'sequelize'
import { SecurityEvent } from '../models/index.js'
import { KNOWN_FOR_MS } from './new-device.js'

export interface ActivityJson {
  id: number
  type: string
  ip: string | null
  device: string
  createdAt: string
  /** The event belongs to the session asking. */
  current: boolean
}

export interface ActivityPage {
  data: ActivityJson[]
  current_page: number
  last_page: number
  per_page: number
  total: number
  path: string
  from: number | null
  to: number | null
}

/** A user's events, newest first, in the paginated shape every list of the API has. */
export async function activityPage(userId: number, page: number, size: number, path: string, currentSessionId: string | undefined): Promise<ActivityPage> {
  const { rows, count } = await SecurityEvent.findAndCountAll({
    where: { userId },
    order: [['createdAt', 'DESC'], ['id', 'DESC']],
    limit: size,
    offset: (page - 1) * size,
  })
  const from = rows.length > 0 ? (page - 1) * size + 1 : null
  return {
    data: rows.map((row) => ({
      id: row.id,
      type: row.type,
      ip: row.ip,
      device: row.device ?? 'Unknown device',
      createdAt: row.createdAt.toISOString(),
      current: currentSessionId !== undefined && row.sessionId === currentSessionId,
    })),
    current_page: page,
    last_page: Math.max(1, Math.ceil(count / size)),
    per_page: size,
    total: count,
    path,
    from,
    to: from === null ? null : from + rows.length - 1,
  }
}

/** The job `security:prune-events`: events are kept 90 days. */
export async function pruneSecurityEvents(now = Date.now()): Promise<number> {
  return SecurityEvent.destroy({ where: { createdAt: { [Op.lt]: new Date(now - KNOWN_FOR_MS) } } })
}
