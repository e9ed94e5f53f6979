import type { RequestHandler } from 'express'
import { z } from 'zod'
import type { AppContext } from '../../context.js'
import { currentPasswordField, newPasswordField } from '../../http/schemas.js'
import { validate } from '../../http/validate.js'
import { recordCredentialEvent } from '../../security/credential-events.js'
import { events } from '../../security/events.js'
import { hashNewPassword } from '../../services/breached-passwords.js'
import { signedInUser } from '../../services/users.js'
import { translatorOf } from '../../i18n/request-locale.js'

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
