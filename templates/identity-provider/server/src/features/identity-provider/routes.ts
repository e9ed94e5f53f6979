import { Router, type Express, type Request, type RequestHandler } from 'express'
import { type AppContext, authenticate, countRequest, rateLimitsOf, requireConfirmed, requireRole } from '../../kernel/index.js'
import { config } from './config.js'
import { consent, deny, showInteraction } from './controllers/interaction.js'
import { listConnectedApps, revokeConnectedApp } from './controllers/connected-apps.js'
import { createClient, deleteClient, listClients, rotateClientSecret, updateClient } from './controllers/oauth-clients.js'
import { DPOP_ALGORITHMS } from './services/dpop.js'
import { providerOf } from './services/provider.js'
import { API_SCOPES, apiResourceOf, AUTHORIZATION_SERVER_METADATA, issuerOf, MOUNT, PROTECTED_RESOURCE_METADATA } from './services/urls.js'

/** The consent page's API, for the app's own sign-in alone (sessionOnly in index.ts). */
export function interactionRoutes(ctx: AppContext): Router {
  const router = Router()
  const signedIn = authenticate(ctx)
  router.get('/interaction/:uid', signedIn, showInteraction(ctx))
  router.post('/interaction/:uid/consent', signedIn, consent(ctx))
  router.post('/interaction/:uid/deny', signedIn, deny(ctx))
  return router
}

/** A person's connected apps, under /api/account (signed in, from a session only, as every account route). */
export function connectedAppRoutes(ctx: AppContext): Router {
  const router = Router()
  router.get('/', listConnectedApps())
  router.delete('/:clientId', revokeConnectedApp(ctx))
  return router
}

/** Admins register clients; making one, a new secret and a deletion need step-up. */
export function clientRoutes(ctx: AppContext): Router {
  const router = Router()
  const admin = [authenticate(ctx), requireRole('admin')]
  const confirmed = requireConfirmed(ctx)
  router.get('/', ...admin, listClients())
  router.post('/', ...admin, confirmed, createClient())
  router.patch('/:id', ...admin, confirmed, updateClient(ctx))
  router.post('/:id/secret', ...admin, confirmed, rotateClientSecret(ctx))
  router.delete('/:id', ...admin, confirmed, deleteClient(ctx))
  return router
}

/**
 * oidc-provider under /oauth2 (its authorization, token, userinfo, revocation, introspection and
 * JWKS endpoints, and discovery at `{issuer}/.well-known/openid-configuration`), but for
 * `/oauth2/authorize`, the consent page of the client; RFC 8414's discovery and the API's
 * RFC 9728 metadata at the origin's well-known paths. Framed by nobody, as every page.
 */
export function mountProvider(app: Express, ctx: AppContext): void {
  const run: RequestHandler = (req, res, next) => {
    providerOf(ctx).then(({ handle }) => handle(req, res), next)
  }
  const limits = rateLimitsOf(config, ctx)
  const limitOf = (req: Request) =>
    req.method !== 'POST'
      ? undefined
      : req.path === '/token' || req.path === '/device/auth'
        ? { name: 'oauth-token', limit: limits.tokenEndpointPerIp }
        : req.path === '/device'
          ? { name: 'oauth-device-code', limit: limits.deviceCodePerIp }
          : req.path === '/reg'
            ? { name: 'oauth-client-registration', limit: limits.clientRegistrationPerIp }
            : undefined
  const limited: RequestHandler = (req, res, next) => {
    const limit = limitOf(req)
    if (!limit) return run(req, res, next)
    countRequest(req, ctx, { ...limit, key: req.ip ?? 'unknown' }).then(() => run(req, res, next), next)
  }
  const framedByNobody: RequestHandler = (req, res, next) => {
    res.setHeader('X-Frame-Options', 'DENY')
    // The code typed on /device comes here and goes on to the provider by a form it posts itself:
    // the provider adds that one inline script's hash to `script-src`.
    const script = req.method === 'GET' && req.path === '/device' ? "; script-src 'self'" : ''
    res.setHeader('Content-Security-Policy', `default-src 'none'${script}; frame-ancestors 'none'`)
    next()
  }
  const discovery: RequestHandler = (req, res, next) => {
    // As if asked under the issuer: oidc-provider writes its endpoints' addresses from the path
    // it is mounted at, which it reads off the original URL.
    req.url = '/.well-known/openid-configuration'
    req.originalUrl = `${MOUNT}${req.url}`
    run(req, res, next)
  }
  for (const path of AUTHORIZATION_SERVER_METADATA) app.get(path, framedByNobody, discovery)
  const resourceMetadata: RequestHandler = (_req, res) => {
    // Public metadata, for clients on any origin (an agent's page).
    res.setHeader('Access-Control-Allow-Origin', '*')
    res.json({
      resource: apiResourceOf(ctx.env),
      authorization_servers: [issuerOf(ctx.env)],
      scopes_supported: [...API_SCOPES],
      bearer_methods_supported: ['header'],
      dpop_signing_alg_values_supported: [...DPOP_ALGORITHMS],
    })
  }
  for (const path of PROTECTED_RESOURCE_METADATA) app.get(path, resourceMetadata)
  app.use(MOUNT, (req, res, next) => (req.path === '/authorize' ? next() : framedByNobody(req, res, () => limited(req, res, next))))
}
