import type { RequestHandler } from 'express'
import { clearAuthCookies, events, findLiveSession, notFound, recordCredentialEvent, type AppContext } from '../../../kernel/index.js'

/** Signs one session out; another user's session or an unknown id is a 404 (nothing to tell apart). */
export function revokeAccountSession(ctx: AppContext): RequestHandler {
  return async (req, res) => {
    const userId = req.auth!.id
    const id = String(req.params.id)
    if (!(await findLiveSession(userId, id))) throw notFound()
    await recordCredentialEvent(ctx, id === req.sessionId ? events.signOut : events.sessionsRevoked, userId, { req, revoke: { only: id }, meta: { scope: 'one' } })
    // Signing out this very session is a logout.
    if (id === req.sessionId) clearAuthCookies(res, ctx)
    res.status(204).end()
  }
}
