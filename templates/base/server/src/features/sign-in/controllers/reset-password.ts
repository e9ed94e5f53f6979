import type { RequestHandler } from 'express'
import { z } from 'zod'
import { clearAuthCookies, consumeResetLink, emailField, events, findUserByEmail, hashNewPassword, invalidToken, newPasswordField, recordCredentialEvent, setPasswordByReset, tokenField, translatorOf, validate, type AppContext } from '../../../kernel/index.js'

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
