import type { RequestHandler } from 'express'
import { activityPage, activityQuery, validate } from '../../../kernel/index.js'

/** The signed-in user's security activity, newest first (the `/settings/security` page). */
export function listAccountActivity(): RequestHandler {
  return async (req, res) => {
    const { page, size } = validate(activityQuery, req.query)
    res.json({ data: await activityPage(req.auth!.id, page, size, '/api/account/activity', req.sessionId) })
  }
}
