import type { RequestHandler } from 'express'
import { z } from 'zod'
import type { AppContext } from '../../kernel/context.js'
import { currentPasswordField, newPasswordField } from '../../kernel/http/schemas.js'
import { validate } from '../../kernel/http/validate.js'
import { recordCredentialEvent } from '../../kernel/security/credential-events.js'
import { events } from '../../kernel/security/events.js'
import { hashNewPassword } from '../../kernel/auth/breached-passwords.js'
import { signedInUser } from '../../kernel/services/users.js'
import { translatorOf } from '../../kernel/i18n/request-locale.js'

export const updatePasswordSchema = z.object({ current_password: currentPasswordField.optional(), password: newPasswordField })

/** A new password ends every other session and voids every pending link; this one stays signed in. */
export function updatePassword(ctx: AppContext): RequestHandler {
  return async (req, res) => {
    const input = validate(updatePasswordSchema, req.body)
    const user = await signedInUser(req)
    const password = await hashNewPassword(ctx, input.password)
    await recordCredentialEvent(ctx, events.passwordChanged, user.id, {
      req,
      change: (transaction) => user.update({ password }, { transaction }),
      revoke: { except: req.sessionId },
      userChanged: true,
    })
    res.json({ message: translatorOf(req)('account.passwordChanged') })
  }
}
