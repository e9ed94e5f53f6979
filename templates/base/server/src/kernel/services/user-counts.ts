import { LRUCache } from 'lru-cache'

/**
 * The users list's totals by query. An exact COUNT(*) reads every matching index entry (10 to
 * 20 ms for 100,000 users on MariaDB, the larger part of a filtered page), and paging through one
 * search or filter asks for the same total on every page. Any change to a user empties the
 * cache (AuthCache.userChanged: on this instance at once, on the others through Redis), and a
 * total is never kept longer than `ttlMs`, the bound for a change nobody announced.
 */
export class UserCounts {
  private readonly totals: LRUCache<string, number>
  /** Moves on with every change, so a count that was running when one landed is not kept. */
  private generation = 0

  constructor(settings: { ttlMs: number; max: number }) {
    this.totals = new LRUCache<string, number>({ max: settings.max, ttl: settings.ttlMs, ttlAutopurge: false })
  }

  async total(key: string, count: () => Promise<number>): Promise<number> {
    const cached = this.totals.get(key)
    if (cached !== undefined) return cached
    const generation = this.generation
    const total = await count()
    if (generation === this.generation) this.totals.set(key, total)
    return total
  }

  changed(): void {
    this.generation++
    this.totals.clear()
  }
}
