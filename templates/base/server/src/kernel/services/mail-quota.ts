import type { Options, Store } from 'express-rate-limit'
import type { AppContext } from '../context.js'
import { limitStore } from '../http/rate-limits.js'

type QuotaContext = Pick<AppContext, 'redis' | 'keyPrefix' | 'rateLimits'>

interface Window {
  store: Store
  limit: number
}

// One pair of counters per app, made on first use.
const windows = new WeakMap<QuotaContext, Window[]>()

function windowsOf(ctx: QuotaContext): Window[] {
  let pair = windows.get(ctx)
  if (!pair) {
    const limits = [['mail-address', ctx.rateLimits.mailPerAddress], ['mail-address-hour', ctx.rateLimits.mailPerAddressHourly]] as const
    pair = limits.map(([name, { limit, windowMs }]) => {
      const store = limitStore(ctx, name)
      store.init?.({ windowMs } as Options)
      return { store, limit }
    })
    windows.set(ctx, pair)
  }
  return pair
}

/**
 * Whether one more mail may go to `address` (in its normal form): the per-client limits let
 * every client mail an address a few times, so each route that mails an address of the
 * requester's choosing asks here before it queues the job. Counted in the rate limits' store
 * (Redis, shared by every instance, when configured). A refusal is silent: the route answers as
 * it always does, so the cap tells nobody anything about the address. Only mails let through
 * count, so refused requests do not use up the hour's allowance.
 */
export async function mayMail(ctx: QuotaContext, address: string): Promise<boolean> {
  const pair = windowsOf(ctx)
  const hits = await Promise.all(pair.map(({ store }) => store.increment(address)))
  if (hits.every((hit, i) => hit.totalHits <= pair[i]!.limit)) return true
  await Promise.all(pair.map(({ store }) => store.decrement(address)))
  return false
}
