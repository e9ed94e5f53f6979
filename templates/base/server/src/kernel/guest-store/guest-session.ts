import { randomBytes } from 'node:crypto'
import type { SessionData, SessionStore } from './store.js'

/** The guest session of one request, available as `req.guestSession`. */
export interface GuestSession {
  /** null when the store is disabled; reading it starts the session (and sets its cookie). */
  readonly id: string | null
  readonly enabled: boolean
  /** Whether the request carried a valid session cookie (so a write would not start a new session). */
  readonly started: boolean
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

/** What `req.guestSession` is when the store is disabled: one shared object, nothing to do. */
const disabledSession: GuestSession = {
  id: null,
  enabled: false,
  started: false,
  get: async () => undefined,
  set: async () => {},
  all: async () => ({}),
  merge: async () => ({}),
  regenerate: async () => {},
  reset: async () => {},
}

/**
 * The session comes into being when it is used: its id is read (GET /api/session) or data is
 * written. Until then no cookie is set, so a response that never touched the session (register,
 * health, a login without a guest session) carries no `{name}_session` cookie.
 * `issueCookie` is called with the id whenever it is new or its data was written, so the
 * cookie's Max-Age and the store's TTL run out together; `dropCookie` deletes it on sign-out.
 */
export function createGuestSession(
  store: SessionStore,
  readCookieId: () => string | undefined,
  issueCookie: (id: string) => void,
  dropCookie: () => void,
): GuestSession {
  if (!store.enabled) return disabledSession
  // The cookie's signature is checked only when the session is first touched.
  let read = false
  let current: string | undefined
  const idOf = () => {
    if (!read) {
      read = true
      current = readCookieId()
    }
    return current
  }
  const setId = (next: string | undefined) => {
    read = true
    current = next
  }
  const ensureId = (): string => {
    let id = idOf()
    if (id === undefined) {
      id = newSessionId()
      setId(id)
      issueCookie(id)
    }
    return id
  }
  return {
    get id() {
      return ensureId()
    },
    enabled: true,
    get started() {
      return idOf() !== undefined
    },
    async get<T>(key: string) {
      const id = idOf()
      return id === undefined ? undefined : ((await store.get(id, key)) as T | undefined)
    },
    async set(key, value) {
      const id = ensureId()
      await store.set(id, key, value)
      issueCookie(id)
    },
    async all() {
      const id = idOf()
      return id === undefined ? {} : store.all(id)
    },
    async merge(patch) {
      const id = ensureId()
      const data = await store.merge(id, patch)
      issueCookie(id)
      return data
    },
    async regenerate() {
      const id = idOf()
      if (id === undefined) return
      const next = newSessionId()
      await store.rename(id, next)
      setId(next)
      issueCookie(next)
    },
    async reset() {
      const id = idOf()
      if (id === undefined) return
      await store.destroy(id)
      setId(undefined)
      dropCookie()
    },
  }
}
