import { Op } from 'sequelize'
import { paginated, type Paginated } from '../../../http/paginated.js'
import { SecurityEvent } from '../../../models/index.js'
import type { ActivityJson } from '../../../security/activity.js'
import { deviceOf } from '../../../services/sessions.js'
import { TEAM_EVENT_TYPES } from '../events.js'

/**
 * A team's events, newest first, in the shape of the account's activity. They are the members'
 * own rows in `security_events`, found by their type and the `teamId` their meta holds
 * (events.ts `teamMeta`): `"teamId":5,` or `"teamId":5}`, never 50's.
 */
export async function teamActivityPage(teamId: number, page: number, size: number, currentSessionId: string | undefined): Promise<Paginated<ActivityJson>> {
  const { rows, count } = await SecurityEvent.findAndCountAll({
    where: {
      type: [...TEAM_EVENT_TYPES],
      [Op.or]: [{ meta: { [Op.like]: `%"teamId":${teamId},%` } }, { meta: { [Op.like]: `%"teamId":${teamId}}%` } }],
    },
    order: [['createdAt', 'DESC'], ['id', 'DESC']],
    limit: size,
    offset: (page - 1) * size,
  })
  const events = rows.map((row) => ({
    id: row.id,
    type: row.type,
    ip: row.ip,
    device: deviceOf(row.userAgent),
    createdAt: row.createdAt.toISOString(),
    current: currentSessionId !== undefined && row.sessionId === currentSessionId,
  }))
  return paginated(events, count, page, size, `/api/teams/${teamId}/activity`)
}
