import type { ErrorRequestHandler } from 'express'
import type { AppContext } from '../context.js'
import { recordCredentialEvent } from '../security/credential-events.js'
import { events } from '../security/events.js'

/**
 * Last on the account router: a request refused for a wrong password, code or passkey (marked by
 * kernel/security/confirmation.ts `markWrongConfirmation`) leaves the user's `confirmation_failed`, as
 * a wrong sign-in leaves `sign_in_failed`, so a stolen session guessing at step-up shows in the
 * owner's activity. `meta.method` says which way was tried; nothing of what was typed is kept.
 */
export function recordWrongConfirmations(ctx: AppContext): ErrorRequestHandler {
  return async (error, req, res, next) => {
    const method = res.locals.wrongConfirmation as string | undefined
    if (method !== undefined && req.auth) {
      try {
        await recordCredentialEvent(ctx, events.confirmationFailed, req.auth.id, { req, meta: { method } })
      } catch (failure) {
        return next(failure)
      }
    }
    next(error)
  }
}
