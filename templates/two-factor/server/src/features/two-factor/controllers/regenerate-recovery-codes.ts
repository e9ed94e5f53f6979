import type { RequestHandler } from 'express'
import { z } from 'zod'
import { type AppContext, currentPasswordField, HttpError, recordCredentialEvent, signedInUser, validate } from '../../../kernel/index.js'
import { twoFactorEvents } from '../events.js'
import { replaceRecoveryCodes } from '../services/recovery-codes.js'

export const regenerateRecoveryCodesSchema = z.object({ password: currentPasswordField.optional() })

/** A new set of codes (the old ones stop working); other sessions end, as a lost set may be in use. */
export function regenerateRecoveryCodes(ctx: AppContext): RequestHandler {
  return async (req, res) => {
    validate(regenerateRecoveryCodesSchema, req.body)
    const user = await signedInUser(req)
    if (!user.twoFactorConfirmedAt) throw new HttpError(409, 'twoFactor.notEnabled')
    let recoveryCodes: string[] = []
    await recordCredentialEvent(ctx, twoFactorEvents.recoveryCodesRegenerated, user.id, {
      req,
      revoke: { except: req.sessionId },
      change: async (transaction) => {
        recoveryCodes = await replaceRecoveryCodes(user.id, transaction)
      },
    })
    res.json({ recovery_codes: recoveryCodes })
  }
}
