import { Router } from 'express'
import { type AppContext, ipOf, limiterFactory, precognitive, rateLimitsOf, requireConfirmed } from '../../kernel/index.js'
import { config } from './config.js'
import { linkProvider } from './controllers/link-provider.js'
import { listConnections } from './controllers/list-connections.js'
import { listProviders } from './controllers/list-providers.js'
import { providerCallback } from './controllers/provider-callback.js'
import { startConfirmation, startConfirmationSchema } from './controllers/start-confirmation.js'
import { startSignIn } from './controllers/start-sign-in.js'
import { unlinkProvider } from './controllers/unlink-provider.js'

/** Under /api/auth/oauth, signed out: starting stores a flow and an answer costs a call to the provider, so both are limited per IP. */
export function oauthSignInRoutes(ctx: AppContext): Router {
  const router = Router()
  const limiter = limiterFactory(ctx)
  router.get('/', listProviders(ctx))
  router.get('/:provider', limiter({ name: 'oauth-start-ip', limit: rateLimitsOf(config, ctx).oauthStartPerIp, key: ipOf }), startSignIn(ctx))
  router.get('/:provider/callback', limiter({ name: 'oauth-callback-ip', limit: rateLimitsOf(config, ctx).oauthCallbackPerIp, key: ipOf }), providerCallback(ctx))
  return router
}

/** Under /api/account/connections, behind authentication. */
export function connectionRoutes(ctx: AppContext): Router {
  const router = Router()
  router.get('/', listConnections())
  // Step-up: from a borrowed session nobody links their own provider, or unlinks the owner's.
  const confirmed = requireConfirmed(ctx)
  router.post('/:provider', confirmed, linkProvider(ctx))
  router.delete('/:provider', confirmed, unlinkProvider(ctx))
  return router
}

/** Under /api/account/confirm/provider, behind authentication: confirming it is you with a linked provider (step-up). */
export function providerConfirmRoutes(ctx: AppContext): Router {
  const router = Router()
  router.post('/:provider', precognitive(startConfirmationSchema), startConfirmation(ctx))
  return router
}
