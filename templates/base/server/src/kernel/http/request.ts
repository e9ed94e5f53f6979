import type { Locale } from '../i18n/locales.js'
import type { Principal } from '../auth/principal.js'
import type { GuestSession } from '../guest-store/guest-session.js'

/** The authenticated identity (`req.auth`): set by the authentication middleware. */
export interface AuthIdentity {
  id: number
  email: string
  roleId: number | null
  role: string | null
}

declare global {
  namespace Express {
    interface Request {
      auth?: AuthIdentity
      /** How the request authenticated and what it may do (kernel/auth/principal.ts): set with `auth`. */
      principal?: Principal
      /** The signed-in user's chosen language (set with `auth`); null or unset: the browser's decides. */
      userLocale?: Locale | null
      /**
       * The device session of the authenticated request: one sign-in, its refresh-token family
       * and its `sessions` row (kernel/models/session.ts), listed on the sessions page.
       */
      sessionId?: string
      /** Set when the session is an admin's impersonation of its user: that admin's id (kernel/auth/impersonation.ts). */
      impersonatorId?: number
      /** The guest session: a small key-value store kept in Redis for anyone, signed in or not (session/). */
      guestSession: GuestSession
    }
  }
}

export {}
