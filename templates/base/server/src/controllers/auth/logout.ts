import type { RequestHandler } from 'express'
import type { AppConfig } from '../../context.js'
import { clearAuthCookies } from '../../services/cookies.js'
import { revokeSessions } from '../../services/sessions.js'

/** Ends this session (its refresh tokens and its access token); other devices stay signed in. */
export function logout(config: AppConfig): RequestHandler {
  return async (req, res) => {
    if (req.auth && req.sessionId) await revokeSessions(config, req.auth.id, { only: req.sessionId })
    await req.session.reset()
    clearAuthCookies(res, config)
    res.status(204).end()
  }
}
