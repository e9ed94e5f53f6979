import type { Request, RequestHandler, Response } from 'express'
import type { AppConfig } from '../context.js'
import { unauthenticated } from '../http/errors.js'
import type { AuthIdentity } from '../http/request.js'
import { cookieNames, readSignedCookie } from '../services/cookies.js'
import { findActiveRefreshToken } from '../services/refresh-tokens.js'
import { issueAccessCookie } from '../services/sign-in.js'
import { verifyAccessToken } from '../services/tokens.js'
import { findUserById, identityOf } from '../services/users.js'

/**
 * The spec's middleware: a verified access token authenticates; when it is missing or merely
 * expired, a verified refresh token whose jti is live in the database earns a new access cookie
 * (the refresh token itself is not rotated here). A present but invalid access token (bad
 * signature, other algorithm, wrong type) is refused outright and never renewed.
 */
export function authenticate(config: AppConfig): RequestHandler {
  return async (req, res, next) => {
    const identity = await resolveIdentity(req, res, config)
    if (!identity) throw unauthenticated()
    req.auth = identity
    next()
  }
}

async function resolveIdentity(req: Request, res: Response, config: AppConfig): Promise<AuthIdentity | null> {
  // `Authorization: Bearer` for clients that keep the returned access_token themselves.
  const header = req.get('authorization')
  if (header !== undefined) {
    const match = /^Bearer\s+(\S+)$/i.exec(header)
    const verified = match ? verifyAccessToken(config.keys, match[1] as string) : null
    return verified?.ok ? identityFromClaims(verified.claims) : null
  }

  const names = cookieNames(config)
  const access = readSignedCookie(req, names.access)
  if (access.present) {
    if (access.value === null) return null
    const verified = verifyAccessToken(config.keys, access.value)
    if (verified.ok) return identityFromClaims(verified.claims)
    if (!verified.expired) return null
  }

  const refresh = readSignedCookie(req, names.refresh)
  if (refresh.value === null) return null
  const row = await findActiveRefreshToken(config, refresh.value)
  const user = row?.userId ? await findUserById(row.userId) : null
  if (!user) return null
  issueAccessCookie(res, config, user)
  return identityOf(user)
}

function identityFromClaims(claims: { sub: string; email: string; roleId: number | null; role: string | null }): AuthIdentity {
  return { id: Number(claims.sub), email: claims.email, roleId: claims.roleId, role: claims.role }
}
