import { randomBytes } from 'node:crypto'
import type { SessionData, SessionStore } from './store.js'

/** The guest session of one request, available as `req.session`. */
export interface GuestSession {
  /** null when the store is disabled. */
  readonly id: string | null
  readonly enabled: boolean
  get<T = unknown>(key: string): Promise<T | undefined>
  set(key: string, value: unknown): Promise<void>
  all(): Promise<SessionData>
  merge(patch: SessionData): Promise<SessionData>
  /** New id, same data: called on every sign-in so a planted id is worthless (no fixation). */
  regenerate(): Promise<void>
  /** New id, no data: called on sign-out. */
  reset(): Promise<void>
}

export const newSessionId = () => randomBytes(32).toString('base64url')
export const isSessionId = (value: unknown): value is string => typeof value === 'string' && /^[\w-]{43}$/.test(value)

/**
 * `issueCookie` is called with the id whenever it is new or its data was written, so the
 * cookie's Max-Age and the store's TTL run out together.
 */
export function createGuestSession(store: SessionStore, cookieId: string | undefined, issueCookie: (id: string) => void): GuestSession {
  if (!store.enabled) {
    return {
      id: null,
      enabled: false,
      get: async () => undefined,
      set: async () => {},
      all: async () => ({}),
      merge: async () => ({}),
      regenerate: async () => {},
      reset: async () => {},
    }
  }
  let id = cookieId ?? newSessionId()
  if (cookieId === undefined) issueCookie(id)
  return {
    get id() {
      return id
    },
    enabled: true,
    get: async <T>(key: string) => (await store.get(id, key)) as T | undefined,
    async set(key, value) {
      await store.set(id, key, value)
      issueCookie(id)
    },
    all: () => store.all(id),
    async merge(patch) {
      const data = await store.merge(id, patch)
      issueCookie(id)
      return data
    },
    async regenerate() {
      const next = newSessionId()
      await store.rename(id, next)
      id = next
      issueCookie(id)
    },
    async reset() {
      await store.destroy(id)
      id = newSessionId()
      issueCookie(id)
    },
  }
}
