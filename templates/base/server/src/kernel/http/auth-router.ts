import { Router } from 'express'
import type { AppContext } from '../context.js'
import type { RateLimiters } from './rate-limits.js'

/**
 * `/api/auth`: the ways to sign in, each slice's (`routes.auth`). `GET /me` is mounted ahead of
 * it (kernel/http/api.ts). Every route here is the app's own sign-in's: a key (any
 * `Authorization` that is not the app's access token) is refused before it is even judged
 * (kernel/auth/session-only.ts).
 */
export function authRouter(ctx: AppContext, limits: RateLimiters): Router {
  const router = Router()
  for (const feature of ctx.features) feature.routes?.auth?.(router, ctx, limits)
  return router
}
