import express, { type Express } from 'express'
import helmet from 'helmet'
import { servesHttps } from './kernel/config/env.js'
import type { AppContext } from './kernel/context.js'
import './kernel/http/request.js'
import { clientRoutes, inlineScriptSources } from './kernel/http/client.js'
import { errorHandler, notFoundHandler } from './kernel/http/error-handler.js'
import { mountApi } from './kernel/http/api.js'
import { pageDirectives } from './kernel/http/page-policy.js'
import { authChallenges } from './kernel/auth/authenticate.js'

export type { AppContext, AppServices, AppSettings } from './kernel/context.js'
export { createAppContext } from './create-context.js'

/** The whole HTTP application; the server and the tests build it the same way. */
export function createApp(ctx: AppContext): Express {
  const app = express()
  app.disable('x-powered-by')
  // API answers are never cached (see the security section of the README), so an ETag would
  // only cost a SHA-1 per response.
  app.set('etag', false)
  if (ctx.env.TRUST_PROXY !== undefined) app.set('trust proxy', ctx.env.TRUST_PROXY)
  const instance = ctx.env.INSTANCE_ID
  if (instance) {
    // Which instance answered, for whoever runs several behind a load balancer.
    app.use((_req, res, next) => {
      res.setHeader('X-Instance-Id', instance)
      next()
    })
  }

  mountApi(app, ctx)
  for (const feature of ctx.features) feature.routes?.root?.(app, ctx)
  const https = servesHttps(ctx.env)
  app.use(
    helmet({
      // Over plain http (local production runs) upgrading requests or pinning HSTS breaks the page.
      // No page is framed, the app's own neither: one document serves every page of the client
      // (a consent or confirmation page too), so what it allows one it allows all.
      contentSecurityPolicy: {
        directives: pageDirectives(ctx, { scriptSrc: ["'self'", ...inlineScriptSources(ctx.clientDir)], frameAncestors: ["'none'"], upgradeInsecureRequests: https ? [] : null }),
      },
      strictTransportSecurity: https,
      xFrameOptions: { action: 'deny' },
    }),
    clientRoutes(ctx),
  )
  app.use(notFoundHandler)
  app.use(errorHandler(ctx.logger, authChallenges(ctx)))
  return app
}
