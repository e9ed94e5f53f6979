import type { RequestHandler } from 'express'
import { security } from '../config/security.js'
import type { AppContext } from '../context.js'
import { clearCookie, cookieNames, readSignedCookie, setCookie } from '../auth/cookies.js'
import { createGuestSession, isSessionId } from './guest-session.js'

/** Gives every request `req.guestSession`; a no-op session when the store is disabled. */
export function guestSession(ctx: AppContext): RequestHandler {
  const name = cookieNames(ctx).session
  return (req, res, next) => {
    req.guestSession = createGuestSession(
      ctx.sessions,
      () => {
        const cookie = readSignedCookie(req, ctx, name).value
        return isSessionId(cookie) ? cookie : undefined
      },
      (id) => setCookie(res, ctx, name, id, security.sessionTtlSeconds),
      () => clearCookie(res, ctx, name),
    )
    next()
  }
}
