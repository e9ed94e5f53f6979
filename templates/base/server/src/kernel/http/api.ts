import cors from 'cors'
import express, { Router, type Express, type RequestHandler } from 'express'
import helmet from 'helmet'
import { servesHttps } from '../config/env.js'
import { security } from '../config/security.js'
import type { AppContext } from '../context.js'
import { health } from './health.js'
import { apiReference, openApiDocument } from '../openapi/serve.js'
import { csrfGuard } from '../auth/csrf.js'
import { formPostParser } from './form-posts.js'
import { notFoundHandler } from './error-handler.js'
import { guestSession } from '../guest-store/middleware.js'
import { createRateLimiters } from './rate-limits.js'
import { authenticate } from '../auth/authenticate.js'
import { me } from '../auth/me.js'
import { sessionOnlyGuard } from '../auth/session-only.js'
import { accountRouter } from './account-router.js'
import { authRouter } from './auth-router.js'

/**
 * JSON bodies, and every other body type read only to be dropped: it obeys the same size limit
 * (413), and a form post or a text body then meets the same 422 as an empty one. GET, HEAD and
 * OPTIONS carry no body here, so they skip both parsers. Not strict: a top-level `null` or
 * `"text"` is well-formed JSON of the wrong shape, so it meets validation (422) like `[1]`
 * does; only JSON that does not parse is a 400.
 */
function bodyParser(): RequestHandler {
  const json = express.json({ limit: security.maxBodyBytes, strict: false, type: ['application/json', 'application/*+json'] })
  const other = express.raw({ limit: security.maxBodyBytes, type: () => true })
  return (req, res, next) => {
    if (BODYLESS_METHODS.has(req.method)) return next()
    json(req, res, (error?: unknown) => {
      if (error) return next(error)
      other(req, res, (error?: unknown) => {
        if (Buffer.isBuffer(req.body)) req.body = undefined
        next(error)
      })
    })
  }
}

const BODYLESS_METHODS = new Set(['GET', 'HEAD', 'OPTIONS'])

/**
 * ASVS 14.3.2: nothing an API answer carries (a user, a token, a page of users) may be kept by
 * the browser or a shared cache. Every /api answer says so, errors and health included: one
 * rule is simpler to trust than a list of routes.
 */
const noStore: RequestHandler = (_req, res, next) => {
  res.setHeader('Cache-Control', 'no-store')
  next()
}

/**
 * The middleware every API request passes, run one after the other as one router layer: each
 * layer of its own would cost the router a path match and a dispatch on every request.
 */
function series(...handlers: RequestHandler[]): RequestHandler {
  return (req, res, next) => {
    let index = 0
    // As in Express, any falsy argument means "no error" (cors passes null).
    const step = (error?: unknown) => {
      const handler = handlers[index++]
      if (error || !handler) return next(error || undefined)
      try {
        handler(req, res, step)
      } catch (thrown) {
        next(thrown)
      }
    }
    step()
  }
}

/**
 * The API under /api. `GET /api/auth/me`, the route every page load asks for first, is matched
 * by the app's own router ahead of the API's routers, with the API's middleware (`common`):
 * passing through two routers (the /api mount and /auth) cost it about a tenth of its
 * throughput, measured with two builds serving side by side on one core.
 */
export function mountApi(app: Express, ctx: AppContext): void {
  const common = apiMiddleware(ctx)
  app.get('/api/auth/me', common, authenticate(ctx), me(ctx))
  const formPosts = ctx.features.flatMap((feature) => feature.routes?.formPosts ?? [])
  if (formPosts.length > 0) app.post(formPosts, formPostParser())
  app.use('/api', common, apiRoutes(ctx))
}

/** What every API request passes before its route: headers, CORS, CSRF, body and session. */
function apiMiddleware(ctx: AppContext): RequestHandler {
  const corsOrigins = new Set(ctx.env.CORS_ORIGINS)
  return series(
    // JSON is never rendered as a document, so the API gets the OWASP REST Security set: nothing
    // may load or frame it, no sniffing, no referrer. Document policies (COOP,
    // Origin-Agent-Cluster, DNS prefetch, …) would add bytes to every answer, not safety.
    helmet({
      contentSecurityPolicy: { useDefaults: false, directives: { defaultSrc: ["'none'"], frameAncestors: ["'none'"] } },
      crossOriginOpenerPolicy: false,
      originAgentCluster: false,
      referrerPolicy: { policy: 'no-referrer' },
      strictTransportSecurity: servesHttps(ctx.env),
      xDnsPrefetchControl: false,
      xDownloadOptions: false,
      xFrameOptions: { action: 'deny' },
      xPermittedCrossDomainPolicies: false,
      xXssProtection: false,
    }),
    noStore,
    // Only listed origins get CORS headers; any other origin is never reflected.
    cors({ origin: (origin, done) => done(null, origin !== undefined && corsOrigins.has(origin)), credentials: true }),
    csrfGuard(ctx),
    bodyParser(),
    guestSession(ctx),
  )
}

/**
 * The slices' routes (features/index.ts, base's first), on the kernel's routers: /auth and
 * /account have their own (kernel/http/auth-router.ts, account-router.ts); every other area is a
 * slice's own (`routes.api`).
 */
function apiRoutes(ctx: AppContext): Router {
  const router = Router()
  router.use(sessionOnlyGuard(ctx))
  router.get('/health', health(ctx))
  const limits = createRateLimiters(ctx)
  router.use('/auth', authRouter(ctx, limits))
  router.use('/account', accountRouter(ctx, limits))
  for (const feature of ctx.features) feature.routes?.api?.(router, ctx, limits)
  // Last, so that no other request pays for matching them.
  router.get('/openapi.json', openApiDocument(ctx))
  if (ctx.env.API_DOCS) router.get('/docs', apiReference())
  router.use(notFoundHandler)
  return router
}
