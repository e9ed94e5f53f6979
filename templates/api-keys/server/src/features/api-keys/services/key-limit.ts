import type { Request } from 'express'
import type { Options, Store } from 'express-rate-limit'
import { type AppContext, envOf, HttpError, type Limit, limitStore, msg, rateLimitsOf } from '../../../kernel/index.js'
import { config } from '../config.js'

type LimitContext = Pick<AppContext, 'redis' | 'keyPrefix' | 'rateLimits' | 'env'>

interface Counter {
  store: Store
  limit: number
}

// One counter per app, made on first use, in the rate limits' store: with Redis every instance
// counts a key's requests together, as they do the other limits.
const counters = new WeakMap<LimitContext, Counter>()

/** `RATE_LIMIT_API_KEY`, when set, over the default (config.ts) or a test's own limit. */
export function apiKeyLimit(ctx: Pick<AppContext, 'rateLimits' | 'env'>): Limit {
  const { apiKey } = rateLimitsOf(config, ctx)
  const { RATE_LIMIT_API_KEY } = envOf(config, ctx.env)
  return RATE_LIMIT_API_KEY !== undefined ? { ...apiKey, limit: RATE_LIMIT_API_KEY } : apiKey
}

function counterOf(ctx: LimitContext): Counter {
  let counter = counters.get(ctx)
  if (!counter) {
    const { limit, windowMs } = apiKeyLimit(ctx)
    const store = limitStore(ctx, 'api-key')
    store.init?.({ windowMs } as Options)
    counter = { store, limit }
    counters.set(ctx, counter)
  }
  return counter
}

/**
 * Counts one request of the key (by its row id); past the limit, 429 with `Retry-After` like
 * every limiter of the app. Only requests with the right secret count: a stranger who knows a
 * key's prefix cannot use up its owner's allowance.
 */
export async function countKeyRequest(req: Request, ctx: LimitContext, keyId: number): Promise<void> {
  const { store, limit } = counterOf(ctx)
  const { totalHits, resetTime } = await store.increment(String(keyId))
  if (totalHits <= limit) return
  const seconds = Math.max(1, Math.ceil(((resetTime?.getTime() ?? Date.now() + 60_000) - Date.now()) / 1000))
  req.res?.setHeader('Retry-After', String(seconds))
  throw new HttpError(429, msg('errors.throttled', { seconds }))
}
