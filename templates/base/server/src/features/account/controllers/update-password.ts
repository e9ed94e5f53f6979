import type { RequestHandler } from 'express'
import { z } from 'zod'
import { currentPasswordField, events, hashNewPassword, newPasswordField, recordCredentialEvent, signedInUser, translatorOf, validate, type AppContext } from '../../../kernel/index.js'

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
