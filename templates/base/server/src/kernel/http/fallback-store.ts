import { MemoryStore, type ClientRateLimitInfo, type IncrementResponse, type Options, type Store } from 'express-rate-limit'

/**
 * A rate-limit store that counts in Redis (shared by every instance) and, while Redis is down,
 * in this instance's memory, so limits keep holding per instance instead of failing every request
 * (express-rate-limit's `passOnStoreError` would drop them altogether). rate-limit-redis loads
 * its script once, in `init`; if that failed (Redis down at start-up) the script is loaded again
 * once Redis answers, at most once a second.
 */
export class FallbackStore implements Store {
  private readonly memory = new MemoryStore()
  private options: Options | undefined
  private ready: Promise<void> | undefined
  private retryAt = 0

  constructor(private readonly shared: Store) {}

  get prefix(): string | undefined {
    return this.shared.prefix
  }

  init(options: Options): void {
    this.options = options
    this.memory.init(options)
    this.ready = this.start()
  }

  private start(): Promise<void> {
    const started = Promise.resolve(this.shared.init?.(this.options!))
    started.catch(() => (this.retryAt = Date.now() + 1000))
    return started
  }

  private sharedStore(): Promise<void> {
    if (this.retryAt !== 0 && Date.now() >= this.retryAt) {
      this.retryAt = 0
      this.ready = this.start()
    }
    return this.ready ?? Promise.resolve()
  }

  async get(key: string): Promise<ClientRateLimitInfo | undefined> {
    try {
      await this.sharedStore()
      return await this.shared.get?.(key)
    } catch {
      return this.memory.get(key)
    }
  }

  async increment(key: string): Promise<IncrementResponse> {
    try {
      await this.sharedStore()
      return await this.shared.increment(key)
    } catch {
      return this.memory.increment(key)
    }
  }

  async decrement(key: string): Promise<void> {
    await Promise.allSettled([this.sharedStore().then(() => this.shared.decrement(key)), this.memory.decrement(key)])
  }

  async resetKey(key: string): Promise<void> {
    await Promise.allSettled([this.sharedStore().then(() => this.shared.resetKey(key)), this.memory.resetKey(key)])
  }

  shutdown(): void {
    this.memory.shutdown()
  }
}
