import type { RequestHandler } from 'express'
import type { AppContext } from '../../kernel/context.js'
import { recordCredentialEvent } from '../../kernel/security/credential-events.js'
import { events } from '../../kernel/security/events.js'
import { clearAuthCookies } from '../../kernel/auth/cookies.js'

/** Ends every session of the user, this one included: their access tokens stop working at once. */
export function logoutAll(ctx: AppContext): RequestHandler {
  return async (req, res) => {
    if (req.auth) await recordCredentialEvent(ctx, events.sessionsRevoked, req.auth.id, { req, revoke: 'all', meta: { scope: 'all' } })
    await req.guestSession.reset()
    clearAuthCookies(res, ctx)
    res.status(204).end()
  }
}
