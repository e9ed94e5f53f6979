import type { RequestHandler } from 'express'
import type { AppContext } from '../context.js'
import { forbidden } from '../http/errors.js'
import { headerIsSession } from './authenticate.js'

type Listing = readonly { routes?: { accountShared?: readonly { method: string; path: string }[] } }[]

/**
 * Whether only the app's own sign-in may use a route (`get`, `/api/account/sessions`): the routes
 * that change credentials, sessions, keys or step-up. That is sign-in's (but `GET /api/auth/me`)
 * and the account's, but those the slices list as `accountShared` (the activity). The account
 * router mounts by the same list, the guard below and the API document both ask this, so the
 * three agree.
 */
export function sessionOnlyRoute(features: Listing, method: string, path: string): boolean {
  if (path.startsWith('/api/auth/')) return !(method === 'get' && path === '/api/auth/me')
  if (path !== '/api/account' && !path.startsWith('/api/account/')) return false
  return !features.some((feature) => feature.routes?.accountShared?.some((route) => route.method === method && `/api/account${route.path}` === path))
}

/**
 * Refuses (403), before anything is judged, a request whose `Authorization` header is not the
 * app's own access token (an API key, another app's token) on a route only a session may use,
 * on the kernel's /api/auth and /api/account routers.
 */
export function sessionOnlyGuard(ctx: Pick<AppContext, 'features'>): RequestHandler {
  return (req, _res, next) => {
    if (headerIsSession(req.get('authorization'))) return next()
    const method = req.method === 'HEAD' ? 'get' : req.method.toLowerCase()
    const path = `${req.baseUrl}${req.path}`.replace(/\/$/, '')
    next(sessionOnlyRoute(ctx.features, method, path) ? forbidden() : undefined)
  }
}
