import type { Request, RequestHandler } from 'express'
import { z } from 'zod'
import type { AppContext } from '../context.js'
import { forbidden } from '../http/errors.js'
import { currentPasswordField } from '../http/schemas.js'
import { validate } from '../http/validate.js'
import { confirmationRequired, confirmedUntil, confirmSession, passwordConfirms } from '../security/confirmation.js'

export interface RequireConfirmedOptions {
  /**
   * The request's own password field (`password`, `current_password`), for routes that have
   * always asked for one: a right one still works, and confirms the session at the same time.
   */
  passwordField?: string
  /** Only the requests this picks are guarded (an admin's edit of a user: only a role change). */
  when?: (req: Request) => boolean
}

/**
 * Step-up on a sensitive route (kernel/security/confirmation.ts): without a live confirmation of this
 * session it answers 403 `errors.confirm`. Runs after `authenticate` and the limiters of wrong
 * passwords, which count what this marks (kernel/security/confirmation.ts `markWrongConfirmation`).
 * Only a session can confirm: any other principal (a key) is refused such routes (403), and so is
 * an admin signed in as someone else (kernel/auth/impersonation.ts).
 */
export function requireConfirmed(ctx: AppContext, options: RequireConfirmedOptions = {}): RequestHandler {
  const field = options.passwordField
  const schema = field ? z.object({ [field]: currentPasswordField }) : undefined
  return async (req, res, next) => {
    if (options.when && !options.when(req)) return next()
    // Only a session can confirm, and never an admin's impersonation of its user.
    if (req.principal?.via !== 'session' || req.impersonatorId !== undefined) throw forbidden()
    const userId = req.auth!.id
    const given = field ? (req.body as Record<string, unknown> | undefined)?.[field] : undefined
    if (field && given !== undefined && given !== null && given !== '') {
      const password = validate(schema!, { [field]: given })[field] as string
      if (await passwordConfirms(res, userId, password, field)) {
        await confirmSession(ctx, userId, req.sessionId!)
        return next()
      }
    }
    if (!(await confirmedUntil(userId, req.sessionId))) throw confirmationRequired()
    next()
  }
}
