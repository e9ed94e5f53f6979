import type { RequestHandler } from 'express'
import { z } from 'zod'
import { type AppContext, currentPasswordField, fieldError, keepWayIn, notFound, recordCredentialEvent, validate } from '../../../kernel/index.js'
import { passkeyEvents } from '../events.js'
import { Passkey } from '../models/passkey.js'
import { findOwnPasskey, recountPasskeys } from '../services/passkey-rows.js'

export const removePasskeySchema = z.object({ password: currentPasswordField.optional() })

const lastWayIn = () =>
  fieldError('password', 'passkeys.lastWayIn')

/**
 * Behind step-up; the `passkey_removed` event and the count go with the deletion. An
 * account keeps a way to sign in: the security core counts what is left, after the deletion and
 * under the user's row lock, and refuses the last one.
 */
export function removePasskey(ctx: AppContext): RequestHandler {
  return async (req, res) => {
    validate(removePasskeySchema, req.body)
    const userId = req.auth!.id
    const passkey = await findOwnPasskey(userId, String(req.params.id))
    if (!passkey) throw notFound()
    await recordCredentialEvent(ctx, passkeyEvents.removed, userId, {
      req,
      userChanged: true,
      // The sign-ins this passkey made end with it.
      revoke: { signedInWith: `passkey:${passkey.id}` },
      meta: { passkey: passkey.name },
      change: async (transaction) => {
        await Passkey.destroy({ where: { id: passkey.id, userId }, transaction })
        await recountPasskeys(userId, transaction)
        await keepWayIn(ctx.features, userId, transaction, lastWayIn)
      },
    })
    res.status(204).end()
  }
}
