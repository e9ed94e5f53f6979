import { randomBytes } from 'node:crypto'
import type { SessionData, SessionStore } from './store.js'

/** The guest session of one request, available as `req.session`. */
export interface GuestSession {
  /** null when the store is disabled; reading it starts the session (and sets its cookie). */
  readonly id: string | null
  readonly enabled: boolean
  get<T = unknown>(key: string): Promise<T | undefined>
  set(key: string, value: unknown): Promise<void>
  all(): Promise<SessionData>
  merge(patch: SessionData): Promise<SessionData>
  /** New id, same data: called on every sign-in so a planted id is worthless (no fixation). */
  regenerate(): Promise<void>
  /** Data and cookie gone: called on sign-out; the next use starts a new, empty session. */
  reset(): Promise<void>
}

export const newSessionId = () => randomBytes(32).toString('base64url')
export const isSessionId = (value: unknown): value is string => typeof value === 'string' && /^[\w-]{43}$/.test(value)

/**
 * The session comes into being when it is used: its id is read (GET /api/session) or data is
 * written. Until then no cookie is set, so a response that never touched the session (register,
 * health, a login without a guest session) carries no `{name}_session` cookie.
 * `issueCookie` is called with the id whenever it is new or its data was written, so the
 * cookie's Max-Age and the store's TTL run out together; `dropCookie` deletes it on sign-out.
 */
export function createGuestSession(
  store: SessionStore,
  cookieId: string | undefined,
  issueCookie: (id: string) => void,
  dropCookie: () => void,
): GuestSession {
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
  let id = cookieId
  const ensureId = (): string => {
    if (id === undefined) {
      id = newSessionId()
      issueCookie(id)
    }
    return id
  }
  return {
    get id() {
      return ensureId()
    },
    enabled: true,
    get: async <T>(key: string) => (id === undefined ? undefined : ((await store.get(id, key)) as T | undefined)),
    async set(key, value) {
      const current = ensureId()
      await store.set(current, key, value)
      issueCookie(current)
    },
    all: async () => (id === undefined ? {} : store.all(id)),
    async merge(patch) {
      const current = ensureId()
      const data = await store.merge(current, patch)
      issueCookie(current)
      return data
    },
    async regenerate() {
      if (id === undefined) return
      const next = newSessionId()
      await store.rename(id, next)
      id = next
      issueCookie(id)
    },
    async reset() {
      if (id === undefined) return
      await store.destroy(id)
      id = undefined
      dropCookie()
    },
  }
}
