import type { RequestHandler } from 'express'
import { activityQuery, type AppContext, validate } from '../../../kernel/index.js'
import { teamActivityPage, teamEventTypes } from '../services/team-activity.js'

/** The team's events for its owners and admins, as the account's activity lists the user's. */
export function listTeamActivity(ctx: Pick<AppContext, 'features'>): RequestHandler {
  const types = teamEventTypes(ctx.features)
  return async (req, res) => {
    const { page, size } = validate(activityQuery, req.query)
    res.json({ data: await teamActivityPage(req.team!.id, page, size, { userId: req.auth!.id, sessionId: req.sessionId }, types) })
  }
}
