import type { RequestHandler } from 'express'
import { z } from 'zod'
import type { AppContext } from '../../kernel/context.js'
import { emailField, newPasswordField, tokenField } from '../../kernel/http/schemas.js'
import { validate } from '../../kernel/http/validate.js'
import { recordCredentialEvent } from '../../kernel/security/credential-events.js'
import { events } from '../../kernel/security/events.js'
import { clearAuthCookies } from '../../kernel/auth/cookies.js'
import { setPasswordByReset } from '../../kernel/services/email-verification.js'
import { consumeResetLink } from '../../kernel/services/password-reset.js'
import { hashNewPassword } from '../../kernel/auth/breached-passwords.js'
import { findUserByEmail } from '../../kernel/services/users.js'
import { invalidToken } from './verify-email.js'
import { translatorOf } from '../../kernel/i18n/request-locale.js'

export const resetPasswordSchema = z.object({ email: emailField, token: tokenField, password: newPasswordField })

/**
 * A new password signs the account out everywhere, and voids every other pending link
 * (kernel/security/credential-events.ts); on an unverified account it also verifies the address and ends
 * its registrations (kernel/services/email-verification.ts).
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
