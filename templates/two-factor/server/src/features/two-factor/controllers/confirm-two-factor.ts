import type { RequestHandler } from 'express'
import { z } from 'zod'
import { type AppContext, envOf, decrypt, fieldError, recordCredentialEvent, unauthenticated, User, validate } from '../../../kernel/index.js'
import { config } from '../config.js'
import { twoFactorEvents } from '../events.js'
import { replaceRecoveryCodes } from '../services/recovery-codes.js'
import { stepNotUsed, stepOfCode } from '../services/totp.js'
import { INVALID_CODE, USED_CODE, codeField } from './fields.js'

export const confirmTwoFactorSchema = z.object({ code: codeField })

/** Step two: a valid code turns the pending secret on, with fresh recovery codes; other sessions end. */
export function confirmTwoFactor(ctx: AppContext): RequestHandler {
  return async (req, res) => {
    const { code } = validate(confirmTwoFactorSchema, req.body)
    const user = await User.findByPk(req.auth!.id)
    if (!user) throw unauthenticated()
    const pending = user.twoFactorPendingSecret
    const secret = pending ? decrypt(pending, envOf(config, ctx.env).ENCRYPTION_KEY, 'two-factor-secret') : null
    if (!pending || !secret) throw fieldError('code', 'twoFactor.setUpFirst')
    const step = stepOfCode(secret, code)
    if (step === null) {
      // Counted by the route's limits, as at a challenge.
      res.locals.wrongCode = true
      throw fieldError('code', INVALID_CODE)
    }

    let recoveryCodes: string[] = []
    await recordCredentialEvent(ctx, twoFactorEvents.enabled, user.id, {
      req,
      revoke: { except: req.sessionId },
      userChanged: true,
      change: async (transaction) => {
        // Conditional on the same pending secret and an unused step: a second confirmation with the same code loses.
        const [count] = await User.update(
          { twoFactorSecret: pending, twoFactorPendingSecret: null, twoFactorConfirmedAt: new Date(), twoFactorLastStep: step },
          { where: { id: user.id, twoFactorPendingSecret: pending, ...stepNotUsed(step) }, transaction },
        )
        if (count !== 1) throw fieldError('code', USED_CODE)
        recoveryCodes = await replaceRecoveryCodes(user.id, transaction)
      },
    })
    res.json({ recovery_codes: recoveryCodes })
  }
}
