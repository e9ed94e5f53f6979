import { Router, type Request, type RequestHandler, type Response } from 'express'
import type { AppConfig } from '../context.js'
import { confirmTwoFactor, confirmTwoFactorSchema } from '../controllers/two-factor/confirm-two-factor.js'
import { disableTwoFactor, disableTwoFactorSchema } from '../controllers/two-factor/disable-two-factor.js'
import { enableTwoFactor, enableTwoFactorSchema } from '../controllers/two-factor/enable-two-factor.js'
import { regenerateRecoveryCodes, regenerateRecoveryCodesSchema } from '../controllers/two-factor/regenerate-recovery-codes.js'
import { loadChallenge, twoFactorChallenge, twoFactorChallengeSchema } from '../controllers/two-factor/two-factor-challenge.js'
import { precognitive } from '../middleware/precognition.js'
import { ipOf, limiterFactory } from '../middleware/rate-limits.js'
import type { TwoFactorChallenge } from '../models/two-factor-challenge.js'

/** A wrong code, as the handlers mark it: the only requests the code limits count. */
const wrongCode = (_req: Request, res: Response) => res.locals.wrongCode === true

/** Under /api/account/two-factor, behind authentication (CONTRACT §2 "Two-factor authentication"). */
export function twoFactorAccountRoutes(config: AppConfig, passwordChecked: RequestHandler[]): Router {
  const router = Router()
  const limiter = limiterFactory(config)
  // A code typed at confirm is guessed like one at a challenge: the same limits count wrong ones.
  const userAndIp = (req: Request) => `${req.auth!.id}|${ipOf(req)}`
  const confirmLimits = [
    limiter('2fa-confirm-user-ip', config.rateLimits.twoFactorPerUserIp, userAndIp, true, undefined, wrongCode),
    limiter('2fa-confirm-ip', config.rateLimits.twoFactorPerIp, ipOf, true, undefined, wrongCode),
  ]
  router.post('/', precognitive(enableTwoFactorSchema), ...passwordChecked, enableTwoFactor(config))
  router.post('/confirm', precognitive(confirmTwoFactorSchema), ...confirmLimits, confirmTwoFactor(config))
  router.delete('/', precognitive(disableTwoFactorSchema), ...passwordChecked, disableTwoFactor(config))
  router.post('/recovery-codes', precognitive(regenerateRecoveryCodesSchema), ...passwordChecked, regenerateRecoveryCodes(config))
  return router
}

/** POST /api/auth/two-factor-challenge: wrong codes are limited per user and IP, and per IP, like failed logins. */
export function twoFactorChallengeRoute(config: AppConfig): RequestHandler[] {
  const limiter = limiterFactory(config)
  const userAndIp = (req: Request) => `${(req.res!.locals.twoFactorChallenge as TwoFactorChallenge).userId}|${ipOf(req)}`
  return [
    loadChallenge(config),
    precognitive(twoFactorChallengeSchema),
    limiter('2fa-user-ip', config.rateLimits.twoFactorPerUserIp, userAndIp, true, undefined, wrongCode),
    limiter('2fa-ip', config.rateLimits.twoFactorPerIp, ipOf, true, undefined, wrongCode),
    twoFactorChallenge(config),
  ]
}
