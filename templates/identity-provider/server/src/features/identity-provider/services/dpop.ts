import { createHash } from 'node:crypto'
import type { Request } from 'express'
import { calculateJwkThumbprint, EmbeddedJWK, jwtVerify } from 'jose'
import { LRUCache } from 'lru-cache'
import type { AppContext } from '../../../kernel/index.js'

/** What a DPoP proof may be signed with, at the provider's endpoints and at the API alike (oidc-provider's own list). */
export const DPOP_ALGORITHMS = ['ES256', 'Ed25519', 'EdDSA'] as const

/** Seconds a proof's `iat` may lie from now, either way: oidc-provider's window at its own endpoints. */
const WINDOW_SECONDS = 300

/**
 * Proofs seen, without Redis: such an app runs as one process (docs/deploying.md), where a check
 * and a set in one turn of the event loop cannot race. Bounded by time alone, not by count: an
 * evicted proof could be replayed, and only a token's holder can add one.
 */
const seenHere = new WeakMap<AppContext, LRUCache<string, true>>()

/** True the first time a proof (its key and `jti`) is used; false for a replay. Atomic: SET NX in Redis. */
async function firstUse(ctx: Pick<AppContext, 'redis' | 'keyPrefix'>, jkt: string, jti: string): Promise<boolean> {
  const key = `dpop:${createHash('sha256').update(`${jkt}:${jti}`).digest('base64url')}`
  // A proof stays acceptable until its iat (up to a window ahead) is a window behind.
  const lifeMs = 2 * WINDOW_SECONDS * 1000
  if (ctx.redis) return (await ctx.redis.set(`${ctx.keyPrefix}${key}`, '1', 'PX', lifeMs, 'NX')) === 'OK'
  let seen = seenHere.get(ctx as AppContext)
  if (!seen) seenHere.set(ctx as AppContext, (seen = new LRUCache<string, true>({ ttl: lifeMs, ttlAutopurge: true })))
  if (seen.has(key)) return false
  seen.set(key, true)
  return true
}

/** The request's address as a proof names it (`htu`): BASE_URL stands for the app's root, and no query or fragment counts. */
const targetOf = (req: Request, ctx: Pick<AppContext, 'env'>) => `${ctx.env.BASE_URL}${req.originalUrl.split('?')[0]}`

const withoutQuery = (url: unknown): string | undefined => {
  if (typeof url !== 'string' || !URL.canParse(url)) return undefined
  const parsed = new URL(url)
  parsed.search = ''
  parsed.hash = ''
  return parsed.href
}

/**
 * RFC 9449 §7.1 at the API: the request carries exactly one `DPoP` proof, signed by the key the
 * token is bound to (`cnf.jkt`), for this method and address, for this token (`ath`), made within
 * the window and never seen before.
 */
export async function proofHolds(req: Request, token: string, jkt: string, ctx: Pick<AppContext, 'env' | 'redis' | 'keyPrefix'>): Promise<boolean> {
  const proof = req.get('dpop')
  // Two DPoP headers arrive joined by a comma, which no JWT holds.
  if (!proof || proof.includes(',')) return false
  try {
    const { payload, protectedHeader } = await jwtVerify(proof, EmbeddedJWK, { typ: 'dpop+jwt', algorithms: [...DPOP_ALGORITHMS] })
    if (typeof payload.jti !== 'string' || payload.jti === '' || typeof payload.iat !== 'number') return false
    if (Math.abs(Date.now() / 1000 - payload.iat) > WINDOW_SECONDS) return false
    if (payload.htm !== req.method || withoutQuery(payload.htu) !== withoutQuery(targetOf(req, ctx))) return false
    if (payload.ath !== createHash('sha256').update(token).digest('base64url')) return false
    if ((await calculateJwkThumbprint(protectedHeader.jwk!)) !== jkt) return false
    return await firstUse(ctx, jkt, payload.jti)
  } catch {
    return false
  }
}
