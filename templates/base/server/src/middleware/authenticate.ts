import type { Request, RequestHandler } from 'express'
import type { AppConfig } from '../context.js'
import { unauthenticated } from '../http/errors.js'
import { cookieNames, readSignedCookie } from '../services/cookies.js'
import { findActiveRefreshToken } from '../services/refresh-tokens.js'
import { issueAccessCookie } from '../services/sign-in.js'
import { verifyAccessToken } from '../services/tokens.js'

/**
 * The spec's middleware: a verified access token authenticates; when it is missing or merely
 * expired, a verified refresh token whose jti is live in the database earns a new access cookie
 * (the refresh token itself is not rotated here). A present but invalid access token (bad
 * signature, other algorithm, wrong type) is refused outright and never renewed.
 *
 * The identity comes from the user as the database has it, through the authentication cache
 * (services/auth-cache.ts), never from the token's claims alone: a deleted user is refused and a
 * changed role applies, within the cache's bound.
 */
export function authenticate(config: AppConfig): RequestHandler {
  const names = cookieNames(config)
  return async (req, res, next) => {
    const proof = await proofOf(req, config, names)
    const user = proof ? await config.authCache.user(proof.userId) : undefined
    if (!proof || !user) throw unauthenticated()
    req.auth = user.identity
    if (proof.renew) issueAccessCookie(res, config, user.identity)
    next()
  }
}

type Names = ReturnType<typeof cookieNames>

/** The user the request's tokens prove, and whether that took the refresh token (a new access cookie is due). */
async function proofOf(req: Request, config: AppConfig, names: Names): Promise<{ userId: number; renew: boolean } | null> {
  // `Authorization: Bearer` for clients that keep the returned access_token themselves.
  const header = req.get('authorization')
  if (header !== undefined) {
    const match = /^Bearer\s+(\S+)$/i.exec(header)
    const verified = match ? verifyAccessToken(config.keys, match[1] as string) : null
    return verified?.ok ? { userId: Number(verified.claims.sub), renew: false } : null
  }

  const access = readSignedCookie(req, config, names.access)
  if (access.present) {
    if (access.value === null) return null
    const verified = verifyAccessToken(config.keys, access.value)
    if (verified.ok) return { userId: Number(verified.claims.sub), renew: false }
    if (!verified.expired) return null
  }

  const refresh = readSignedCookie(req, config, names.refresh)
  if (refresh.value === null) return null
  const userId = await findActiveRefreshToken(config, refresh.value)
  return userId === null ? null : { userId, renew: true }
}
