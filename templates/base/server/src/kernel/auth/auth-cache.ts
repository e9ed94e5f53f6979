import type { Redis } from 'ioredis'
import { LRUCache } from 'lru-cache'
import type { Logger } from '../logger.js'
import { loadRefreshTokenRow, type RefreshTokenRow } from './refresh-token-rows.js'
import { loadSessionState, type SessionState } from './sessions.js'
import { UserCounts } from '../services/user-counts.js'
import { loadUser, type CachedUser } from '../services/users.js'

export interface AuthCacheSettings {
  /** The longest a cached entry is trusted: the bound on staleness when a message is lost or there is no Redis. */
  ttlMs: number
  /** Entries per kind: memory stays bounded whatever the number of users. */
  max: number
}

export const defaultAuthCacheSettings: AuthCacheSettings = { ttlMs: 5000, max: 10_000 }

type Message = { user: number } | { sessionsOf: number } | { credential: string; id: string }

/** The Redis channel the instances sharing `keyPrefix` tell each other about changes on. */
export const cacheChannel = (keyPrefix: string) => `${keyPrefix}auth-cache`

/**
 * What authentication reads on every request, kept in memory: users by id (their role, and the
 * JSON `/me` answers with), sessions by id and refresh-token rows by jti; and, as they change
 * with the same writes, the users list's totals (`userCounts`). A write that changes them
 * calls `userChanged` or `sessionsChanged`, which drops the entries on this instance at once
 * and, with Redis, on every other instance through pub/sub. An entry is never trusted for longer
 * than `ttlMs` (5 s), so a lost message, a Redis outage or a second instance without Redis can
 * serve a deleted user, a changed role or a revoked session for 5 s at most. Concurrent misses
 * for one key share one query.
 */
export class AuthCache {
  private readonly users: LRUCache<number, CachedUser>
  private readonly refreshTokens: LRUCache<string, RefreshTokenRow>
  private readonly sessions: LRUCache<string, SessionState>
  readonly userCounts: UserCounts
  /**
   * The user each cached or loading session and refresh token was asked for (the token's `sub`),
   * so `sessionsChanged` can drop a user's entries, loads in flight included: a load that started
   * before a revocation committed must not be kept.
   */
  private readonly owners = new Map<string, number>()
  private readonly subscriber: Redis | null
  private readonly channel: string
  private readonly credentialKinds = new Map<string, CredentialCache<{ userId: number }>>()
  private readonly options: { max: number; ttl: number }

  constructor(
    private readonly redis: Redis | null,
    keyPrefix: string,
    private readonly logger: Logger,
    settings: AuthCacheSettings = defaultAuthCacheSettings,
  ) {
    const options = { max: settings.max, ttl: settings.ttlMs, ttlAutopurge: false }
    this.options = options
    const owned = (kind: 'r' | 's') => ({ ...options, dispose: (_value: unknown, key: string) => void this.owners.delete(`${kind}:${key}`) })
    this.users = new LRUCache<number, CachedUser>({ ...options, fetchMethod: loading(loadUser) })
    this.refreshTokens = new LRUCache<string, RefreshTokenRow>({ ...owned('r'), fetchMethod: loading(loadRefreshTokenRow) })
    this.sessions = new LRUCache<string, SessionState>({ ...owned('s'), fetchMethod: loading(loadSessionState) })
    this.userCounts = new UserCounts(settings)
    this.channel = cacheChannel(keyPrefix)
    this.subscriber = redis ? this.subscribe(redis) : null
  }

  /** The user as the database has it (within the TTL), or undefined when it does not exist. */
  user(id: number): Promise<CachedUser | undefined> {
    return fetchFresh(this.users, id, loadUser)
  }

  /** `userId`: whom the token claims to belong to. */
  refreshToken(jti: string, userId: number): Promise<RefreshTokenRow | undefined> {
    return fetchFresh(this.refreshTokens, jti, loadRefreshTokenRow, () => this.owners.set(`r:${jti}`, userId))
  }

  session(id: string, userId: number): Promise<SessionState | undefined> {
    return fetchFresh(this.sessions, id, loadSessionState, () => this.owners.set(`s:${id}`, userId))
  }

  /**
   * The fresh entries as they are, without a promise: the middleware's hot path takes them
   * synchronously and waits only on a miss (a stale entry, or one being loaded, is a miss).
   */
  cachedUser(id: number): CachedUser | undefined {
    return this.users.get(id)
  }

  cachedSession(id: string): SessionState | undefined {
    return this.sessions.get(id)
  }

  /**
   * A layer's credentials by id (its authenticator's rows: an API key's owner and scopes), kept
   * like sessions: dropped with their user's sessions (every revoking event calls
   * `sessionsChanged`), one by one with `changed`, and never trusted beyond the TTL. Asking for a
   * kind again gives the cache it already has (the first `load` stays), so a layer may ask on
   * every request instead of keeping the cache itself.
   */
  credentials<T extends { userId: number }>(kind: string, load: (id: string) => Promise<T | undefined>): CredentialCache<T> {
    const kept = this.credentialKinds.get(kind)
    // A kind is asked for with one row type, its layer's.
    if (kept) return kept as unknown as CredentialCache<T>
    const cache = new CredentialCache<T>(load, this.options, (id) => {
      cache.drop(id)
      this.publish({ credential: kind, id })
    })
    this.credentialKinds.set(kind, cache as unknown as CredentialCache<{ userId: number }>)
    return cache
  }

  /** The user's row is new, changed or gone: its name, e-mail, role or verification. */
  userChanged(id: number): void {
    this.apply({ user: id })
    this.publish({ user: id })
  }

  /** Sessions or refresh tokens of these users were revoked or replaced. */
  sessionsChanged(userIds: number | number[]): void {
    for (const id of ([] as number[]).concat(userIds)) {
      this.apply({ sessionsOf: id })
      this.publish({ sessionsOf: id })
    }
  }

  async close(): Promise<void> {
    this.subscriber?.disconnect()
  }

  private apply(message: Message): void {
    if ('user' in message) {
      this.users.delete(message.user)
      this.userCounts.changed()
      return
    }
    if ('credential' in message) {
      this.credentialKinds.get(message.credential)?.drop(message.id)
      return
    }
    for (const credentials of this.credentialKinds.values()) credentials.dropUser(message.sessionsOf)
    for (const [key, owner] of this.owners) {
      if (owner !== message.sessionsOf) continue
      this.owners.delete(key)
      if (key.startsWith('r:')) this.refreshTokens.delete(key.slice(2))
      else this.sessions.delete(key.slice(2))
    }
  }

  private publish(message: Message): void {
    // Best effort: while Redis is down the other instances fall back on the TTL.
    this.redis?.publish(this.channel, JSON.stringify(message)).catch(() => {})
  }

  private subscribe(redis: Redis): Redis {
    // Unlike the shared client, the subscriber waits for Redis: it resubscribes once Redis is back.
    const subscriber = redis.duplicate({ enableOfflineQueue: true, maxRetriesPerRequest: null, commandTimeout: undefined })
    subscriber.on('error', () => {})
    subscriber.subscribe(this.channel).catch((error: Error) => this.logger.warn(`Auth cache: cannot subscribe: ${error.message}`))
    subscriber.on('message', (_channel: string, text: string) => {
      try {
        this.apply(JSON.parse(text) as Message)
      } catch {
        // Not one of ours.
      }
    })
    return subscriber
  }
}

/**
 * One kind of a layer's credentials, by id (AuthCache `credentials`). A load that an invalidation
 * overtook is used by the request that asked but never kept, so a revoked key cannot come back.
 */
export class CredentialCache<T extends { userId: number }> {
  private readonly entries: LRUCache<string, T>
  /** Bumped by every drop: a load that started before one is not kept. */
  private generation = 0

  constructor(
    private readonly load: (id: string) => Promise<T | undefined>,
    options: { max: number; ttl: number },
    /** Drops the entry here and on every other instance. */
    readonly changed: (id: string) => void,
  ) {
    this.entries = new LRUCache<string, T>({ ...options, ttlAutopurge: false })
  }

  cached(id: string): T | undefined {
    return this.entries.get(id)
  }

  async get(id: string): Promise<T | undefined> {
    const hit = this.entries.get(id)
    if (hit) return hit
    const generation = this.generation
    const row = await this.load(id)
    if (row && generation === this.generation) this.entries.set(id, row)
    return row
  }

  drop(id: string): void {
    this.generation++
    this.entries.delete(id)
  }

  dropUser(userId: number): void {
    this.generation++
    for (const [id, row] of this.entries.entries()) if (row.userId === userId) this.entries.delete(id)
  }
}

/** A failure of the load itself (the database), as opposed to lru-cache cutting the load short. */
class LoadFailed extends Error {
  constructor(readonly reason: unknown) {
    super('load failed')
  }
}

/** The loader as lru-cache's `fetchMethod`, its own failures marked so `fetchFresh` can tell them from aborts. */
function loading<K, V>(load: (key: K) => Promise<V | undefined>) {
  return async (key: K): Promise<V | undefined> => {
    try {
      return await load(key)
    } catch (error) {
      throw new LoadFailed(error)
    }
  }
}

/**
 * An invalidation that lands while the entry is being loaded aborts that load: lru-cache rejects
 * it, for the caller that started it and for every request that joined it. The caller asks
 * again and gets the row as it is after the write, never the one from before it. A user whose
 * sessions change on every request (a client refreshing in a loop) can abort every load, so
 * after a second abort the row is read straight from the database, uncached: a cache may miss,
 * it never turns a miss into an error. A failure of the database itself is not retried (the
 * request answers 503 as soon as it can). `own` registers whose entry it is before every load:
 * the invalidation that aborted one also forgot its owner, and an entry loaded again without
 * one would outlive the next invalidation (a refresh racing "sign out everywhere" kept a revoked
 * session alive for the cache's 5 s).
 */
async function fetchFresh<K extends {}, V extends {}>(
  cache: LRUCache<K, V>,
  key: K,
  load: (key: K) => Promise<V | undefined>,
  own: () => void = () => {},
): Promise<V | undefined> {
  for (let attempt = 1; attempt <= 2; attempt++) {
    own()
    try {
      return await cache.fetch(key)
    } catch (error) {
      if (error instanceof LoadFailed) throw error.reason
    }
  }
  return load(key)
}
