import type { Request, RequestHandler } from 'express'
import type { AppContext } from '../context.js'
import { unauthenticated } from '../http/errors.js'
import { cookieNames, readSignedCookie } from '../services/cookies.js'
import { findActiveRefreshToken } from '../services/refresh-tokens.js'
import { isLive, touchSession } from '../services/sessions.js'
import { issueAccessCookie } from '../services/sign-in.js'
import { verifyAccessToken } from '../services/tokens.js'

/**
 * The authentication middleware: a verified access token authenticates; when it is missing or merely
 * expired, a verified refresh token whose jti is live in the database earns a new access cookie
 * (the refresh token itself is not rotated here). A present but invalid access token (bad
 * signature, other algorithm, wrong type) is refused outright and never renewed.
 *
 * The identity comes from the user as the database has it, through the authentication cache
 * (services/auth-cache.ts), never from the token's claims alone: a deleted user is refused and a
 * changed role applies, within the cache's bound. So does the session the token names (`sid`):
 * once it is revoked (logout, a password change, "sign out everywhere", …) its access token is
 * refused too, not only its refresh token.
 */
export function authenticate(ctx: AppContext): RequestHandler {
  const names = cookieNames(ctx)
  const cache = ctx.authCache
  return async (req, res, next) => {
    // The access token is checked synchronously; only renewal and cache misses wait.
    const proof = accessProof(req, ctx, names) ?? (await refreshProof(req, ctx, names))
    if (!proof) throw unauthenticated()
    const user = cache.cachedUser(proof.userId) ?? (await cache.user(proof.userId))
    const session = cache.cachedSession(proof.sessionId) ?? (await cache.session(proof.sessionId, proof.userId))
    if (!user || !isLive(session, proof.userId)) throw unauthenticated()
    req.auth = user.identity
    req.userLocale = user.locale
    req.sessionId = proof.sessionId
    touchSession(proof.sessionId, session)
    if (proof.renew) issueAccessCookie(res, ctx, user.identity, proof.sessionId)
    next()
  }
}

/**
 * For routes that serve guests too but want to know a signed-in user (confirming an e-mail
 * change keeps the confirming session): `req.auth` is set when the request proves a user, and
 * nothing is refused when it does not.
 */
export function authenticateIfPossible(ctx: AppContext): RequestHandler {
  const required = authenticate(ctx)
  return (req, res, next) => {
    Promise.resolve(required(req, res, () => {}))
      .catch(() => {
        req.auth = undefined
        req.userLocale = undefined
        req.sessionId = undefined
      })
      .then(() => next(), next)
  }
}

type Names = ReturnType<typeof cookieNames>

interface Proof {
  userId: number
  sessionId: string
  /** The refresh token proved it: a new access cookie is due. */
  renew: boolean
}

/**
 * The user and session an access token proves (Bearer header or cookie); `false` when the
 * request is refused outright (a present but invalid token), `undefined` when the refresh
 * cookie should decide (no access cookie, an expired one, or one from before sessions).
 */
function accessProof(req: Request, ctx: AppContext, names: Names): Proof | false | undefined {
  // `Authorization: Bearer` for clients that keep the returned access_token themselves.
  const header = req.get('authorization')
  if (header !== undefined) {
    const match = /^Bearer\s+(\S+)$/i.exec(header)
    const verified = match ? verifyAccessToken(ctx.keys, match[1] as string) : null
    return verified?.ok && verified.claims.sid ? { userId: Number(verified.claims.sub), sessionId: verified.claims.sid, renew: false } : false
  }
  const access = readSignedCookie(req, ctx, names.access)
  if (!access.present) return undefined
  if (access.value === null) return false
  const verified = verifyAccessToken(ctx.keys, access.value)
  if (verified.ok && verified.claims.sid) return { userId: Number(verified.claims.sub), sessionId: verified.claims.sid, renew: false }
  // A token from before sessions existed (no `sid`) is renewed like an expired one.
  return verified.ok || verified.expired ? undefined : false
}

/** The refresh cookie's user and session, for a renewal; null when it proves nothing. */
async function refreshProof(req: Request, ctx: AppContext, names: Names): Promise<Proof | null> {
  const refresh = readSignedCookie(req, ctx, names.refresh)
  if (refresh.value === null) return null
  const active = await findActiveRefreshToken(ctx, refresh.value)
  return active === null ? null : { ...active, renew: true }
}
