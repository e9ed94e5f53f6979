import type { GuestSession } from '../session/guest-session.js'

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
      /** The session (refresh family) of the authenticated request. */
      sessionId?: string
      session: GuestSession
    }
  }
}

export {}
