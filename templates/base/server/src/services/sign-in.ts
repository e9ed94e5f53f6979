import type { Request, Response } from 'express'
import type { AppConfig } from '../context.js'
import type { AuthIdentity } from '../http/request.js'
import { cookieNames, setCookie } from './cookies.js'
import { startRefreshFamily, type IssuedRefreshToken } from './refresh-tokens.js'
import { clientOf } from './sessions.js'
import { signAccessToken } from './tokens.js'

/** An access token for one session (`sid`), so revoking the session ends the token too. */
export function issueAccessCookie(res: Response, config: AppConfig, identity: AuthIdentity, sessionId: string): string {
  const token = signAccessToken(config.keys, identity, config.auth.accessExpirySeconds, sessionId)
  setCookie(res, config, cookieNames(config).access, token, config.auth.accessExpirySeconds)
  return token
}

export function setTokenCookies(res: Response, config: AppConfig, identity: AuthIdentity, refresh: IssuedRefreshToken): string {
  setCookie(res, config, cookieNames(config).refresh, refresh.token, refresh.maxAge)
  return issueAccessCookie(res, config, identity, refresh.row.family)
}

/** Login and register-without-verification: a new token family, both cookies, a new guest session id. */
export async function signIn(req: Request, res: Response, config: AppConfig, identity: AuthIdentity, remember: boolean): Promise<string> {
  const refresh = await startRefreshFamily(config, identity.id, remember, clientOf(req))
  await req.session.regenerate()
  return setTokenCookies(res, config, identity, refresh)
}
