import type { RequestHandler } from 'express'
import { z } from 'zod'
import type { AppConfig } from '../../context.js'
import { currentPasswordField } from '../../http/schemas.js'
import { validate } from '../../http/validate.js'
import { TwoFactorRecoveryCode } from '../../models/index.js'
import { confirmPassword } from '../../services/confirm-password.js'
import { revokeSessions } from '../../services/sessions.js'
import { dropChallenges } from '../../services/two-factor/challenges.js'

export const disableTwoFactorSchema = z.object({ password: currentPasswordField })

/** Secret, recovery codes and waiting sign-ins go; other sessions end. */
export function disableTwoFactor(config: AppConfig): RequestHandler {
  return async (req, res) => {
    const { password } = validate(disableTwoFactorSchema, req.body)
    const user = await confirmPassword(res, req.auth!.id, password)
    await config.sequelize.transaction(async (transaction) => {
      await user.update(
        { twoFactorSecret: null, twoFactorPendingSecret: null, twoFactorConfirmedAt: null, twoFactorLastStep: null },
        { transaction },
      )
      await TwoFactorRecoveryCode.destroy({ where: { userId: user.id }, transaction })
    })
    await dropChallenges(user.id)
    await revokeSessions(config, user.id, { except: req.sessionId })
    config.authCache.userChanged(user.id)
    res.status(204).end()
  }
}
