import type { RequestHandler } from 'express'
import { z } from 'zod'
import type { AppContext } from '../../context.js'
import { notFound } from '../../http/errors.js'
import { currentPasswordField } from '../../http/schemas.js'
import { validate } from '../../http/validate.js'
import { Passkey } from '../../models/passkey.js'
import { recordCredentialEvent } from '../../security/credential-events.js'
import { passkeyEvents } from '../../security/passkey-events.js'
import { confirmPassword } from '../../services/confirm-password.js'
import { findOwnPasskey, recountPasskeys } from '../../services/passkeys/passkey-rows.js'

export const removePasskeySchema = z.object({ password: currentPasswordField })

/** Behind the password; the `passkey_removed` event and the count go with the deletion. */
export function removePasskey(ctx: AppContext): RequestHandler {
  return async (req, res) => {
    const { password } = validate(removePasskeySchema, req.body)
    const userId = req.auth!.id
    const passkey = await findOwnPasskey(userId, String(req.params.id))
    if (!passkey) throw notFound()
    await confirmPassword(res, userId, password)
    await recordCredentialEvent(ctx, passkeyEvents.removed, userId, {
      req,
      userChanged: true,
      meta: { passkey: passkey.name },
      change: async (transaction) => {
        await Passkey.destroy({ where: { id: passkey.id, userId }, transaction })
        await recountPasskeys(userId, transaction)
      },
    })
    res.status(204).end()
  }
}
