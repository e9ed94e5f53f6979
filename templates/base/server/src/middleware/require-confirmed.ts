import type { Request, RequestHandler, Response } from 'express'
import { z } from 'zod'
import type { AppContext } from '../context.js'
import { fieldError } from '../http/errors.js'
import { currentPasswordField } from '../http/schemas.js'
import { validate } from '../http/validate.js'
import { User } from '../models/index.js'
import { confirmationRequired, confirmedUntil, confirmSession } from '../security/confirmation.js'
import { checkPassword } from '../services/passwords.js'

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
 * Step-up on a sensitive route (security/confirmation.ts): without a live confirmation of this
 * session it answers 403 `errors.confirm`. Runs after `authenticate` and the per-user limiter of
 * wrong passwords, which counts what this marks in `res.locals.wrongPassword`.
 */
export function requireConfirmed(ctx: AppContext, options: RequireConfirmedOptions = {}): RequestHandler {
  const field = options.passwordField
  const schema = field ? z.object({ [field]: currentPasswordField }) : undefined
  return async (req, res, next) => {
    if (options.when && !options.when(req)) return next()
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

/**
 * True for the account's password; a wrong one is a 422 on `field`, marked so the limiter counts
 * it. An account without a password has nothing to check: false, and the confirmation decides.
 */
export async function passwordConfirms(res: Response, userId: number, password: string, field = 'password'): Promise<boolean> {
  const user = await User.findByPk(userId, { attributes: ['id', 'password'] })
  if (!user || user.password === null) return false
  if (!(await checkPassword(password, user.password))) {
    res.locals.wrongPassword = true
    throw fieldError(field, 'The password is incorrect.')
  }
  return true
}
