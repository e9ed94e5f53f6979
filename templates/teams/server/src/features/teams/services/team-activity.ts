import { Op } from 'sequelize'
import { type ActivityJson, type AppFeatures, deviceOf, paginated, type Paginated, SecurityEvent } from '../../../kernel/index.js'
import { TEAM_EVENT_TYPES } from '../events.js'

/** Who asks for a team's activity: their own rows show where they came from, nobody else's do. */
export interface ActivityViewer {
  userId: number
  sessionId: string | undefined
}

/**
 * The events a team's activity shows: the teams layer's own, and those other layers record about a
 * team (SSO's, SCIM's), known by the webhook name they are sent under, `team.…`.
 */
export const teamEventTypes = (features: AppFeatures): string[] => [
  ...new Set<string>([
    ...TEAM_EVENT_TYPES,
    ...features.flatMap((feature) => Object.entries(feature.webhookEvents ?? {}).flatMap(([type, name]) => (name.startsWith('team.') ? [type] : []))),
  ]),
]

/**
 * A team's events, newest first, in the shape of the account's activity. They are the members'
 * own rows in `security_events`, found by their type and the `teamId` their meta holds
 * (events.ts `teamMeta`): `"teamId":5,` or `"teamId":5}`, never 50's. A member's address and
 * device are theirs: the team's owners and admins see them only on their own rows.
 */
export async function teamActivityPage(teamId: number, page: number, size: number, viewer: ActivityViewer, types: readonly string[]): Promise<Paginated<ActivityJson>> {
  const { rows, count } = await SecurityEvent.findAndCountAll({
    where: {
      type: [...types],
      [Op.or]: [{ meta: { [Op.like]: `%"teamId":${teamId},%` } }, { meta: { [Op.like]: `%"teamId":${teamId}}%` } }],
    },
    order: [['createdAt', 'DESC'], ['id', 'DESC']],
    limit: size,
    offset: (page - 1) * size,
  })
  const events = rows.map((row) => {
    const own = row.userId === viewer.userId
    return {
      id: row.id,
      type: row.type,
      ip: own ? row.ip : null,
      device: deviceOf(own ? row.userAgent : null),
      createdAt: row.createdAt.toISOString(),
      current: own && viewer.sessionId !== undefined && row.sessionId === viewer.sessionId,
      // In the account activity's shape: an admin signed in as the actor is named, as there.
      impersonatorId: row.impersonatorId,
    }
  })
  return paginated(events, count, page, size, `/api/teams/${teamId}/activity`)
}
