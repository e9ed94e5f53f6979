import express, { type Express } from 'express'
import helmet from 'helmet'
import type { AppConfig } from './context.js'
import './http/request.js'
import { clientRoutes } from './middleware/client.js'
import { errorHandler, notFoundHandler } from './middleware/error-handler.js'
import { apiRoutes } from './routes/api.js'

export type { AppConfig } from './context.js'
export { createAppConfig } from './context.js'

/** The whole HTTP application; the server and the tests build it the same way. */
export function createApp(config: AppConfig): Express {
  const app = express()
  app.disable('x-powered-by')
  // API answers are never cached (see the security section of the README), so an ETag would
  // only cost a SHA-1 per response.
  app.set('etag', false)
  if (config.env.TRUST_PROXY !== undefined) app.set('trust proxy', config.env.TRUST_PROXY)
  const instance = config.env.INSTANCE_ID
  if (instance) {
    // Which instance answered, for whoever runs several behind a load balancer.
    app.use((_req, res, next) => {
      res.setHeader('X-Instance-Id', instance)
      next()
    })
  }

  const https = config.env.BASE_URL.startsWith('https:')
  // JSON is never rendered as a document, so the API gets the OWASP REST Security set: nothing
  // may load or frame it, no sniffing, no referrer. Document policies (COOP, Origin-Agent-Cluster,
  // DNS prefetch, …) would add bytes to every answer, not safety.
  app.use(
    '/api',
    helmet({
      contentSecurityPolicy: { useDefaults: false, directives: { defaultSrc: ["'none'"], frameAncestors: ["'none'"] } },
      crossOriginOpenerPolicy: false,
      originAgentCluster: false,
      referrerPolicy: { policy: 'no-referrer' },
      strictTransportSecurity: https,
      xDnsPrefetchControl: false,
      xDownloadOptions: false,
      xFrameOptions: { action: 'deny' },
      xPermittedCrossDomainPolicies: false,
      xXssProtection: false,
    }),
    apiRoutes(config),
  )
  app.use(
    helmet({
      // Over plain http (local production runs) upgrading requests or pinning HSTS breaks the page.
      contentSecurityPolicy: { directives: { upgradeInsecureRequests: https ? [] : null } },
      strictTransportSecurity: https,
    }),
    clientRoutes(config),
  )
  app.use(notFoundHandler)
  app.use(errorHandler(config.logger))
  return app
}
