import type { Request, RequestHandler } from 'express'
import type { AppContext, AppFeatures } from '../context.js'
import { forbidden, unauthenticated } from '../http/errors.js'
import { hasScope, missingScope, type Principal, scopeOf, SESSION } from './principal.js'
import { cookieNames, readSignedCookie } from './cookies.js'
import { findActiveRefreshToken } from './refresh-tokens.js'
import { isLive, touchSession } from './sessions.js'
import { impersonationRefuses, ownBearer } from './session-only.js'
import { issueAccessCookie } from './sign-in.js'
import { verifyAccessToken } from './tokens.js'

/**
 * The authentication middleware: a verified access token authenticates; when it is missing or merely
 * expired, a verified refresh token whose jti is live in the database earns a new access cookie
 * (the refresh token itself is not rotated here). A present but invalid access token (bad
 * signature, other algorithm, wrong type) is refused outright and never renewed.
 *
 * The identity comes from the user as the database has it, through the authentication cache
 * (kernel/auth/auth-cache.ts), never from the token's claims alone: a deleted user is refused and a
 * changed role applies, within the cache's bound. So does the session the token names (`sid`):
 * once it is revoked (logout, a password change, "sign out everywhere", …) its access token is
 * refused too, not only its refresh token.
 *
 * A request with an `Authorization` header is judged by it alone, and no cookie is read: the
 * app's own access token as a bearer is a session like the cookie; any other kind is asked of the
 * layers' authenticators in order (an API key), whose principals carry scopes (kernel/auth/principal.ts).
 */
export function authenticate(ctx: AppContext): RequestHandler {
  const names = cookieNames(ctx)
  const cache = ctx.authCache
  const authenticators = layerAuthenticators(ctx.features)
  return async (req, res, next) => {
    const header = req.get('authorization')
    // The access token is checked synchronously; only renewal and cache misses wait.
    const proof = header === undefined ? (accessProof(req, ctx, names) ?? (await refreshProof(req, ctx, names))) : bearerProof(ctx, header)
    if (proof === undefined) {
      await byAuthenticators(req, ctx, header!, authenticators)
      return next()
    }
    if (!proof) throw unauthenticated()
    const user = cache.cachedUser(proof.userId) ?? (await cache.user(proof.userId))
    const session = cache.cachedSession(proof.sessionId) ?? (await cache.session(proof.sessionId, proof.userId))
    if (!user || !isLive(session, proof.userId)) throw unauthenticated()
    if (session.impersonatorId !== null) {
      // An admin signed in as the user: one guard for every route the account's owner alone may use.
      if (impersonationRefuses(ctx.features, req)) throw forbidden()
      req.impersonatorId = session.impersonatorId
    }
    req.auth = user.identity
    req.userLocale = user.locale
    req.principal = SESSION
    req.sessionId = proof.sessionId
    touchSession(proof.sessionId, session)
    if (proof.renew) issueAccessCookie(res, ctx, user.identity, proof.sessionId)
    next()
  }
}

/**
 * For routes that serve guests too but want to know a signed-in user (confirming an e-mail
 * change keeps the confirming session): `req.auth` is set when the request proves a session,
 * and nothing is refused when it does not (a key is taken for a guest).
 */
export function authenticateIfPossible(ctx: AppContext): RequestHandler {
  const required = authenticate(ctx)
  const forget = (req: Request) => {
    req.auth = undefined
    req.userLocale = undefined
    req.principal = undefined
    req.sessionId = undefined
    req.impersonatorId = undefined
  }
  return (req, res, next) => {
    Promise.resolve(required(req, res, () => {}))
      .then(() => req.principal?.via === 'session' || forget(req), () => forget(req))
      .then(() => next(), next)
  }
}

const layerAuthenticators = (features: AppFeatures) => features.flatMap((feature) => feature.authenticators ?? [])

/** The `WWW-Authenticate` challenges of the layers' ways in, for every 401 (kernel/http/error-handler.ts). */
export const authChallenges = (ctx: AppContext): ((req: Request) => string[]) => {
  const authenticators = layerAuthenticators(ctx.features).filter((authenticator) => authenticator.challenge)
  return (req) => authenticators.map((authenticator) => authenticator.challenge!(ctx, req))
}

/** The first authenticator that knows the header's kind decides; none knowing it is a 401. */
async function byAuthenticators(req: Request, ctx: AppContext, header: string, authenticators: ReturnType<typeof layerAuthenticators>): Promise<void> {
  for (const authenticator of authenticators) {
    const found = await authenticator.authenticate(req, header, ctx)
    if (found === undefined) continue
    const user = found && (ctx.authCache.cachedUser(found.userId) ?? (await ctx.authCache.user(found.userId)))
    if (!found || !user) break
    const principal: Principal = { via: authenticator.name, scopes: found.scopes, credentialId: found.credentialId, restriction: found.restriction }
    if (!hasScope(principal, scopeOf(req.method))) throw missingScope()
    if (found.restriction && !found.restriction.allows(req)) throw missingScope()
    req.auth = user.identity
    req.userLocale = user.locale
    req.principal = principal
    req.sessionId = undefined
    return
  }
  throw unauthenticated()
}

type Names = ReturnType<typeof cookieNames>

interface Proof {
  userId: number
  sessionId: string
  /** The refresh token proved it: a new access cookie is due. */
  renew: boolean
}

/**
 * `Authorization: Bearer <access token>`, for clients that keep the returned access_token
 * themselves: the session it names, or `false`; `undefined` for a header of another kind.
 */
function bearerProof(ctx: AppContext, header: string): Proof | false | undefined {
  const token = ownBearer(header)
  if (token === undefined) return undefined
  const verified = verifyAccessToken(ctx.keys, token)
  return verified.ok && verified.claims.sid ? { userId: Number(verified.claims.sub), sessionId: verified.claims.sid, renew: false } : false
}

/**
 * The user and session the access cookie proves; `false` when the request is refused outright
 * (a present but invalid token), `undefined` when the refresh cookie should decide (no access
 * cookie, an expired one, or one from before sessions).
 */
function accessProof(req: Request, ctx: AppContext, names: Names): Proof | false | undefined {
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
