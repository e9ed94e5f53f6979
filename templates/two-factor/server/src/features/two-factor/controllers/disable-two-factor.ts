import type { RequestHandler } from 'express'
import { z } from 'zod'
import { type AppContext, currentPasswordField, recordCredentialEvent, signedInUser, validate } from '../../../kernel/index.js'
import { TwoFactorRecoveryCode } from '../models/two-factor-recovery-code.js'
import { twoFactorEvents } from '../events.js'

export const disableTwoFactorSchema = z.object({ password: currentPasswordField.optional() })

/** Secret, recovery codes and waiting sign-ins go; other sessions end. */
export function disableTwoFactor(ctx: AppContext): RequestHandler {
  return async (req, res) => {
    validate(disableTwoFactorSchema, req.body)
    const user = await signedInUser(req)
    // Sign-ins waiting for a code go too: the security core voids every pending challenge.
    await recordCredentialEvent(ctx, twoFactorEvents.disabled, user.id, {
      req,
      revoke: { except: req.sessionId },
      userChanged: true,
      change: async (transaction) => {
        await user.update({ twoFactorSecret: null, twoFactorPendingSecret: null, twoFactorConfirmedAt: null, twoFactorLastStep: null }, { transaction })
        await TwoFactorRecoveryCode.destroy({ where: { userId: user.id }, transaction })
      },
    })
    res.status(204).end()
  }
}
