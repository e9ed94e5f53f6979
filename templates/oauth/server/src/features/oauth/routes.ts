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
  router.get('/:provider', limiter({ name: 'oauth-start-ip', limit: ctx.rateLimits.oauthStartPerIp, key: ipOf }), startSignIn(ctx))
  router.get('/:provider/callback', limiter({ name: 'oauth-callback-ip', limit: ctx.rateLimits.oauthCallbackPerIp, key: ipOf }), providerCallback(ctx))
  return router
}

/** Under /api/account/connections, behind authentication. */
export function connectionRoutes(ctx: AppContext): Router {
  const router = Router()
  router.get('/', listConnections())
  router.post('/:provider', linkProvider(ctx))
  router.delete('/:provider', unlinkProvider(ctx))
  return router
}
