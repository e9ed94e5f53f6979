import type { RequestHandler } from 'express'
import { security } from '../config/security.js'
import type { AppConfig } from '../context.js'
import { clearCookie, cookieNames, readSignedCookie, setCookie } from '../services/cookies.js'
import { createGuestSession, isSessionId } from '../session/guest-session.js'

/** Gives every request `req.session`; a no-op session when the store is disabled. */
export function guestSession(config: AppConfig): RequestHandler {
  const name = cookieNames(config).session
  return (req, res, next) => {
    req.session = createGuestSession(
      config.sessions,
      () => {
        const cookie = readSignedCookie(req, config, name).value
        return isSessionId(cookie) ? cookie : undefined
      },
      (id) => setCookie(res, config, name, id, security.sessionTtlSeconds),
      () => clearCookie(res, config, name),
    )
    next()
  }
}
