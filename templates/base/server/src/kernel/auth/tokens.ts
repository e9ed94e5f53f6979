import type { KeyObject } from 'node:crypto'
import jwt from 'jsonwebtoken'
import type { TokenKeys } from './token-keys.js'
import { memoPerKey } from '../services/verified-memo.js'

export interface AccessClaims {
  sub: string
  email: string
  roleId: number | null
  role: string | null
  type: 'access'
  /** The session (refresh family) the token was issued for: revoking the session refuses the token. */
  sid?: string
  iat: number
  exp: number
}

export interface RefreshClaims {
  sub: string
  jti: string
  type: 'refresh'
  iat: number
  exp: number
}

export type Verified<T> = { ok: true; claims: T } | { ok: false; expired: boolean }

const ALGORITHM = 'HS256'

export const nowSeconds = () => Math.floor(Date.now() / 1000)

export function signAccessToken(
  keys: TokenKeys,
  user: { id: number; email: string; roleId: number | null; role: string | null },
  lifeSeconds: number,
  sessionId?: string,
): string {
  const iat = nowSeconds()
  const claims: AccessClaims = {
    sub: String(user.id),
    email: user.email,
    roleId: user.roleId,
    role: user.role,
    type: 'access',
    ...(sessionId === undefined ? {} : { sid: sessionId }),
    iat,
    exp: iat + lifeSeconds,
  }
  return jwt.sign(claims, keys.access, { algorithm: ALGORITHM })
}

/** `issuedAt` is the family's login time and `expiresAt` its absolute expiry, whole seconds. */
export function signRefreshToken(keys: TokenKeys, token: { userId: number; jti: string; issuedAt: number; expiresAt: number }): string {
  const claims: RefreshClaims = { sub: String(token.userId), jti: token.jti, type: 'refresh', iat: token.issuedAt, exp: token.expiresAt }
  return jwt.sign(claims, keys.refresh, { algorithm: ALGORITHM })
}

export function verifyAccessToken(keys: TokenKeys, token: string): Verified<AccessClaims> {
  return verify<AccessClaims>(token, keys.access, (c) =>
    c.type === 'access' &&
    typeof c.email === 'string' &&
    (c.roleId === null || Number.isInteger(c.roleId)) &&
    (c.role === null || typeof c.role === 'string') &&
    (c.sid === undefined || (typeof c.sid === 'string' && c.sid.length <= 64)),
  )
}

export function verifyRefreshToken(keys: TokenKeys, token: string): Verified<RefreshClaims> {
  return verify<RefreshClaims>(token, keys.refresh, (c) => c.type === 'refresh' && typeof c.jti === 'string' && c.jti.length <= 191)
}

type Claims = Readonly<Record<string, unknown>> & { exp: number }

/** Claims of tokens that verified (kernel/services/verified-memo.ts); `exp` is checked at every use. */
const verifiedTokens = memoPerKey<Claims>()

/**
 * Signature first (HS256 only, so `alg: none` and every other algorithm fail), then expiry,
 * then the claims: only a fully verified payload is ever read. `expired` is reported only for
 * a token whose signature was valid, because jsonwebtoken checks `exp` after the signature.
 */
function verify<T extends { sub: string; iat: number; exp: number }>(
  token: string,
  key: KeyObject,
  hasClaims: (claims: Record<string, unknown>) => boolean,
): Verified<T> {
  const verified = verifiedTokens(key)
  const known = verified.get(token)
  if (known) return nowSeconds() < known.exp ? { ok: true, claims: known as unknown as T } : { ok: false, expired: true }

  let payload: unknown
  try {
    payload = jwt.verify(token, key, { algorithms: [ALGORITHM] })
  } catch (error) {
    return { ok: false, expired: error instanceof jwt.TokenExpiredError }
  }
  if (payload === null || typeof payload !== 'object') return { ok: false, expired: false }
  const claims = payload as Record<string, unknown>
  const wellFormed =
    typeof claims.sub === 'string' &&
    /^[1-9]\d{0,9}$/.test(claims.sub) &&
    Number.isInteger(claims.iat) &&
    Number.isInteger(claims.exp) &&
    hasClaims(claims)
  if (!wellFormed) return { ok: false, expired: false }
  verified.set(token, Object.freeze(claims) as Claims)
  return { ok: true, claims: claims as unknown as T }
}
