import { Router } from 'express'
import type { AppContext } from '../context.js'
import { authenticate } from '../auth/authenticate.js'
import { confirmIdentity } from '../auth/confirm-identity.js'
import { showConfirmation } from '../auth/show-confirmation.js'
import type { RateLimiters } from './rate-limits.js'
import { recordWrongConfirmations } from './wrong-confirmations.js'
import { layerConfirmMethods } from '../security/confirmation.js'

/**
 * `/api/account`, the signed-in user's own account, in three stretches that each slice adds to:
 * `accountOpen` (links that may be opened signed out, on another device), then behind
 * authentication `accountShared` (what a key with the scope may call too), then `account`, with
 * step-up (`GET`/`POST /confirm` and each way to confirm). Only the app's own sign-in gets past
 * the guard to any route but the shared ones (kernel/auth/session-only.ts).
 */
export function accountRouter(ctx: AppContext, limits: RateLimiters): Router {
  const router = Router()
  for (const feature of ctx.features) feature.routes?.accountOpen?.(router, ctx, limits)

  router.use(authenticate(ctx), ...limits.accountWrites)
  for (const feature of ctx.features) for (const route of feature.routes?.accountShared ?? []) router[route.method](route.path, ...route.handlers(ctx))
  // Wrong passwords (and wrong confirmations) count per session and per user across these routes (then 429 for all of them).
  const passwordChecked = limits.accountPassword
  router.get('/confirm', showConfirmation(ctx))
  router.post('/confirm', ...passwordChecked, confirmIdentity(ctx))
  for (const method of layerConfirmMethods(ctx.features)) method.routes?.(router, ctx, passwordChecked)
  for (const feature of ctx.features) feature.routes?.account?.(router, ctx, passwordChecked, limits)
  router.use(recordWrongConfirmations(ctx))
  return router
}
