import type { RequestHandler } from 'express'
import { clearAuthCookies, events, recordCredentialEvent, type AppContext } from '../../../kernel/index.js'

/** Ends every session of the user, this one included: their access tokens stop working at once. */
export function logoutAll(ctx: AppContext): RequestHandler {
  return async (req, res) => {
    if (req.auth) await recordCredentialEvent(ctx, events.sessionsRevoked, req.auth.id, { req, revoke: 'all', meta: { scope: 'all' } })
    await req.guestSession.reset()
    clearAuthCookies(res, ctx)
    res.status(204).end()
  }
}
