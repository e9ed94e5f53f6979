import { Router, type Request, type RequestHandler, type Response } from 'express'
import { type AppContext, ipOf, limiterFactory, precognitive, rateLimitsOf, requireConfirmed } from '../../kernel/index.js'
import { config } from './config.js'
import { confirmTwoFactor, confirmTwoFactorSchema } from './controllers/confirm-two-factor.js'
import { disableTwoFactor, disableTwoFactorSchema } from './controllers/disable-two-factor.js'
import { enableTwoFactor, enableTwoFactorSchema } from './controllers/enable-two-factor.js'
import { regenerateRecoveryCodes, regenerateRecoveryCodesSchema } from './controllers/regenerate-recovery-codes.js'
import { loadChallenge, twoFactorChallenge, twoFactorChallengeSchema } from './controllers/two-factor-challenge.js'
import type { TwoFactorChallenge } from './models/two-factor-challenge.js'

/** A wrong code, as the handlers mark it: the only requests the code limits count. */
const wrongCode = (_req: Request, res: Response) => res.locals.wrongCode === true

/** Under /api/account/two-factor, behind authentication. */
export function twoFactorAccountRoutes(ctx: AppContext, passwordChecked: RequestHandler[]): Router {
  const router = Router()
  const limiter = limiterFactory(ctx)
  // A code typed at confirm is guessed like one at a challenge: the same limits count wrong ones.
  const userAndIp = (req: Request) => `${req.auth!.id}|${ipOf(req)}`
  const confirmLimits = [
    limiter({ name: '2fa-confirm-user-ip', limit: rateLimitsOf(config, ctx).twoFactorPerUserIp, key: userAndIp, failuresOnly: true, failed: wrongCode }),
    limiter({ name: '2fa-confirm-ip', limit: rateLimitsOf(config, ctx).twoFactorPerIp, key: ipOf, failuresOnly: true, failed: wrongCode }),
  ]
  // Step-up on enabling, disabling and new codes; the password these requests carry still confirms.
  const confirmed = [...passwordChecked, requireConfirmed(ctx, { passwordField: 'password' })]
  router.post('/', precognitive(enableTwoFactorSchema), ...confirmed, enableTwoFactor(ctx))
  router.post('/confirm', precognitive(confirmTwoFactorSchema), ...confirmLimits, confirmTwoFactor(ctx))
  router.delete('/', precognitive(disableTwoFactorSchema), ...confirmed, disableTwoFactor(ctx))
  router.post('/recovery-codes', precognitive(regenerateRecoveryCodesSchema), ...confirmed, regenerateRecoveryCodes(ctx))
  return router
}

/** POST /api/auth/two-factor-challenge: wrong codes are limited per user and IP, and per IP, like failed logins. */
export function twoFactorChallengeRoute(ctx: AppContext): RequestHandler[] {
  const limiter = limiterFactory(ctx)
  const userAndIp = (req: Request) => `${(req.res!.locals.twoFactorChallenge as TwoFactorChallenge).userId}|${ipOf(req)}`
  return [
    loadChallenge(ctx),
    precognitive(twoFactorChallengeSchema),
    limiter({ name: '2fa-user-ip', limit: rateLimitsOf(config, ctx).twoFactorPerUserIp, key: userAndIp, failuresOnly: true, failed: wrongCode }),
    limiter({ name: '2fa-ip', limit: rateLimitsOf(config, ctx).twoFactorPerIp, key: ipOf, failuresOnly: true, failed: wrongCode }),
    twoFactorChallenge(ctx),
  ]
}
