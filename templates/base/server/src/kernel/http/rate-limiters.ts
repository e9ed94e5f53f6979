import type { Request, RequestHandler } from 'express'

/** The app's named rate limiters (kernel/http/rate-limits.ts builds them), as routes put them in front of a handler. */
export interface RateLimiters {
  login: RequestHandler[]
  register: RequestHandler[]
  forgotPassword: RequestHandler[]
  resendVerification: RequestHandler[]
  /** Counts only requests that would start a guest session in Redis. */
  sessionCreate: RequestHandler[]
  /** After `authenticate`: counts wrong passwords and wrong confirmations (kernel/auth/require-confirmed.ts) per session and per user. */
  accountPassword: RequestHandler[]
  emailChange: RequestHandler[]
  /** After `authenticate`: every write under /api/account, per user, so no signed-in client can fill a table. */
  accountWrites: RequestHandler[]
  /** Forgets the failed logins of this e-mail and IP. */
  clearLoginFailures(req: Request): Promise<void>
}
