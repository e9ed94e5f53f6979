import type { RequestHandler } from 'express'
import { z } from 'zod'
import type { AppContext } from '../../context.js'
import { emailField, newPasswordField, tokenField } from '../../http/schemas.js'
import { validate } from '../../http/validate.js'
import { recordCredentialEvent } from '../../security/credential-events.js'
import { events } from '../../security/events.js'
import { clearAuthCookies } from '../../services/cookies.js'
import { setPasswordByReset } from '../../services/email-verification.js'
import { consumeResetLink } from '../../services/password-reset.js'
import { hashNewPassword } from '../../services/breached-passwords.js'
import { findUserByEmail } from '../../services/users.js'
import { invalidToken } from './verify-email.js'
import { translatorOf } from '../../i18n/request-locale.js'

export const resetPasswordSchema = z.object({ email: emailField, token: tokenField, password: newPasswordField })

/**
 * A new password signs the account out everywhere, and voids every other pending link
 * (security/credential-events.ts); on an unverified account it also verifies the address and ends
 * its registrations (services/email-verification.ts).
 */
export function resetPassword(ctx: AppContext): RequestHandler {
  return async (req, res) => {
    const input = validate(resetPasswordSchema, req.body)
    // Before the link is used, so a refused password leaves it working for a better one.
    const password = await hashNewPassword(ctx, input.password)
    const user = await findUserByEmail(input.email)
    if (!(await consumeResetLink(user, input.token)) || !user) throw invalidToken()
    await recordCredentialEvent(ctx, events.passwordReset, user.id, {
      req,
      change: (transaction) => setPasswordByReset(user, password, transaction, ctx.auth.requireEmailVerification),
      revoke: 'all',
      userChanged: true,
    })
    clearAuthCookies(res, ctx)
    res.json({ message: translatorOf(req)('auth.passwordReset') })
  }
}
