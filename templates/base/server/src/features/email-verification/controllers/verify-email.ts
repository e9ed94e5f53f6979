import type { RequestHandler } from 'express'
import { z } from 'zod'
import { emailField, events, fieldError, findUserByEmail, hashNewPassword, invalidToken, msg, nameField, newPasswordField, openVerificationLink, recordCredentialEvent, saveUserChanges, serializeUser, tokenField, translatorOf, useVerificationLink, validate, type AppContext } from '../../../kernel/index.js'

/** `password` and `name` are read only for a choose-a-password link (`&choose=1`). */
export const verifyEmailSchema = z.object({ email: emailField, token: tokenField, password: newPasswordField.optional(), name: nameField.optional() })


/**
 * A registration's own link sets that registration's name and password along with the verified
 * address. A choose-a-password link sets the password given here, and the name given or the
 * registration's. Either way the account ends with credentials its mailbox's owner chose, and
 * every other link of the address dies; with verification required, or a password set, so does
 * every session the account had.
 */
export function verifyEmail(ctx: AppContext): RequestHandler {
  return async (req, res) => {
    const input = validate(verifyEmailSchema, req.body)
    const user = await findUserByEmail(input.email)
    const link = await openVerificationLink(user, input.token)
    if (!link || !user) throw invalidToken()
    if (link.choose && input.password === undefined) throw fieldError('password', msg('validation.required', { field: 'password' }))
    // Before the link is used, so a refused password leaves it working for a better one.
    const chosen = link.choose ? await hashNewPassword(ctx, input.password!) : undefined
    const credentials = link.choose
      ? { password: chosen!, name: input.name ?? link.name ?? user.name }
      : link.password !== null
        ? { password: link.password, name: link.name ?? user.name }
        : {}
    if (!(await useVerificationLink(link))) throw invalidToken()
    const verify = { emailVerifiedAt: user.emailVerifiedAt ?? new Date(), ...credentials }
    if ('password' in credentials || ctx.auth.requireEmailVerification) {
      // A link that sets a password on an account that was already verified is a reset.
      const kind = user.emailVerifiedAt !== null && 'password' in credentials ? events.passwordReset : events.sessionsRevoked
      await recordCredentialEvent(ctx, kind, user.id, {
        req,
        change: (transaction) => user.update(verify, { transaction }),
        revoke: 'all',
        userChanged: true,
        meta: { reason: 'email_verified' },
      })
    } else {
      // Verification optional, and the account's own password stays: its sessions go on.
      await saveUserChanges(ctx, user, verify)
    }
    res.json({ message: translatorOf(req)('auth.verified'), user: serializeUser(user) })
  }
}
