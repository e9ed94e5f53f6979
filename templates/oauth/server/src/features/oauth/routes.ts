import { Router } from 'express'
import type { AppContext } from '../../context.js'
import { linkProvider } from './controllers/link-provider.js'
import { listConnections } from './controllers/list-connections.js'
import { listProviders } from './controllers/list-providers.js'
import { providerCallback } from './controllers/provider-callback.js'
import { startSignIn } from './controllers/start-sign-in.js'
import { unlinkProvider } from './controllers/unlink-provider.js'
import { ipOf, limiterFactory } from '../../middleware/rate-limits.js'

/** Under /api/auth/oauth, signed out: starting stores a flow and an answer costs a call to the provider, so both are limited per IP. */
export function oauthSignInRoutes(ctx: AppContext): Router {
  const router = Router()
  const limiter = limiterFactory(ctx)
  router.get('/', listProviders(ctx))
  router.get('/:provider', limiter('oauth-start-ip', ctx.rateLimits.oauthStartPerIp, ipOf), startSignIn(ctx))
  router.get('/:provider/callback', limiter('oauth-callback-ip', ctx.rateLimits.oauthCallbackPerIp, ipOf), providerCallback(ctx))
  return router
}

/** Under /api/account/connections, behind authentication (CONTRACT §2 "Social sign-in"). */
export function connectionRoutes(ctx: AppContext): Router {
  const router = Router()
  router.get('/', listConnections())
  router.post('/:provider', linkProvider(ctx))
  router.delete('/:provider', unlinkProvider(ctx))
  return router
}
