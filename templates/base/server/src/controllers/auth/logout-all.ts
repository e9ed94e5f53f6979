import type { RequestHandler } from 'express'
import type { AppConfig } from '../../context.js'
import { clearAuthCookies } from '../../services/cookies.js'
import { revokeSessions } from '../../services/sessions.js'

/** Revokes every refresh token of the user: all devices are signed out once their access token expires. */
export function logoutAll(config: AppConfig): RequestHandler {
  return async (req, res) => {
    if (req.auth) await revokeSessions(config, req.auth.id)
    await req.session.reset()
    clearAuthCookies(res, config)
    res.status(204).end()
  }
}
