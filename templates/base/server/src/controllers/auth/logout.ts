import type { RequestHandler } from 'express'
import type { AppConfig } from '../../context.js'
import { clearAuthCookies, cookieNames, readSignedCookie } from '../../services/cookies.js'
import { revokeRefreshToken } from '../../services/refresh-tokens.js'

/** Revokes this session's refresh token only; other devices stay signed in. */
export function logout(config: AppConfig): RequestHandler {
  return async (req, res) => {
    const refresh = readSignedCookie(req, config, cookieNames(config).refresh).value
    if (refresh && req.auth) await revokeRefreshToken(config, refresh, req.auth.id)
    await req.session.reset()
    clearAuthCookies(res, config)
    res.status(204).end()
  }
}
