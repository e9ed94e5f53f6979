import type { Redis } from 'ioredis'
import { security } from '../config/security.js'
import { msg } from '../i18n/translate.js'

export type SessionData = Record<string, unknown>

export class SessionLimitError extends Error {}

/** Guest session storage keyed by session id. */
export interface SessionStore {
  readonly enabled: boolean
  all(id: string): Promise<SessionData>
  get(id: string, key: string): Promise<unknown>
  set(id: string, key: string, value: unknown): Promise<void>
  /** Merges keys (a null value removes one) within the size limits, or throws SessionLimitError. */
  merge(id: string, patch: SessionData): Promise<SessionData>
  /** Moves the data to a new id: the old id stops working. */
  rename(from: string, to: string): Promise<void>
  destroy(id: string): Promise<void>
}

/** Used when REDIS_URL is unset: every operation succeeds and keeps nothing. */
export class DisabledSessionStore implements SessionStore {
  readonly enabled = false
  async all() {
    return {}
  }
  async get() {
    return undefined
  }
  async set() {}
  async merge() {
    return {}
  }
  async rename() {}
  async destroy() {}
}

/** One Redis hash per session, each field a JSON value; the TTL restarts on every write. */
export class RedisSessionStore implements SessionStore {
  readonly enabled = true

  constructor(
    private readonly redis: Redis,
    private readonly prefix: string,
    private readonly ttlSeconds = security.sessionTtlSeconds,
  ) {}

  private key(id: string) {
    return `${this.prefix}session:${id}`
  }

  async all(id: string): Promise<SessionData> {
    const raw = await this.redis.hgetall(this.key(id))
    return Object.fromEntries(Object.entries(raw).map(([field, value]) => [field, parse(value)]))
  }

  async get(id: string, key: string): Promise<unknown> {
    const value = await this.redis.hget(this.key(id), key)
    return value === null ? undefined : parse(value)
  }

  async set(id: string, key: string, value: unknown): Promise<void> {
    await this.redis.multi().hset(this.key(id), key, JSON.stringify(value)).expire(this.key(id), this.ttlSeconds).exec()
  }

  async merge(id: string, patch: SessionData): Promise<SessionData> {
    const merged: SessionData = { ...(await this.all(id)) }
    for (const [field, value] of Object.entries(patch)) {
      if (value === null) delete merged[field]
      else merged[field] = value
    }
    if (Object.keys(merged).length > security.sessionMaxKeys) {
      throw new SessionLimitError(msg('validation.sessionKeys', { max: security.sessionMaxKeys }))
    }
    if (Buffer.byteLength(JSON.stringify(merged), 'utf8') > security.sessionMaxBytes) {
      throw new SessionLimitError(msg('validation.sessionBytes', { max: security.sessionMaxBytes }))
    }
    const key = this.key(id)
    const transaction = this.redis.multi().del(key)
    const entries = Object.entries(merged)
    if (entries.length > 0) {
      transaction.hset(key, Object.fromEntries(entries.map(([field, value]) => [field, JSON.stringify(value)])))
      transaction.expire(key, this.ttlSeconds)
    }
    await transaction.exec()
    return merged
  }

  async rename(from: string, to: string): Promise<void> {
    // RENAME fails on a missing key, and a session that never stored anything has none.
    if ((await this.redis.exists(this.key(from))) === 0) return
    await this.redis.multi().rename(this.key(from), this.key(to)).expire(this.key(to), this.ttlSeconds).exec()
  }

  async destroy(id: string): Promise<void> {
    await this.redis.del(this.key(id))
  }
}

function parse(value: string): unknown {
  try {
    return JSON.parse(value)
  } catch {
    return undefined
  }
}
