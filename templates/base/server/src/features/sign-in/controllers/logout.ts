import type { RequestHandler } from 'express'
import { clearAuthCookies, events, recordCredentialEvent, type AppContext } from '../../../kernel/index.js'

/** Ends this session (its refresh tokens and its access token); other devices stay signed in. */
export function logout(ctx: AppContext): RequestHandler {
  return async (req, res) => {
    if (req.auth && req.sessionId) await recordCredentialEvent(ctx, events.signOut, req.auth.id, { req, revoke: { only: req.sessionId } })
    await req.guestSession.reset()
    clearAuthCookies(res, ctx)
    res.status(204).end()
  }
}
