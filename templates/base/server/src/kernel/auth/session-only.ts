import type { Request, RequestHandler } from 'express'
import type { AppContext } from '../context.js'
import { forbidden } from '../http/errors.js'

/** The app's own access token looks like a JWT; a bearer of another shape is a layer's (an API key). */
const JWT_BEARER = /^Bearer\s+(([\w-]+)\.[\w-]+\.[\w-]+)$/i

/** The JOSE header every access token of the app's own carries (jsonwebtoken writes it so). */
const OWN_HEADER = Buffer.from(JSON.stringify({ alg: 'HS256', typ: 'JWT' })).toString('base64url')

/**
 * A JWT whose header names a type of its own (RFC 9068's `at+jwt`, an access token another part
 * of the app issued as an authorization server) is not the app's sign-in: the layers'
 * authenticators judge it. Any other JWT, well-formed or not, is the kernel's to refuse.
 */
function foreignJwt(header: string): boolean {
  if (header === OWN_HEADER) return false
  try {
    const typ = (JSON.parse(Buffer.from(header, 'base64url').toString('utf8')) as { typ?: unknown } | null)?.typ
    return typeof typ === 'string' && typ.toUpperCase() !== 'JWT'
  } catch {
    return false
  }
}

/** The app's own access token in an `Authorization: Bearer` header, if that is what it holds. */
export function ownBearer(header: string): string | undefined {
  const match = JWT_BEARER.exec(header)
  return match && !foreignJwt(match[2] as string) ? (match[1] as string) : undefined
}

/** Whether a request's `Authorization` header, if any, is the app's own sign-in (a session's). */
export const headerIsSession = (header: string | undefined): boolean => header === undefined || ownBearer(header) !== undefined

type Listing = readonly { routes?: { accountShared?: readonly { method: string; path: string }[]; sessionOnly?: readonly string[] } }[]

const patterns = new Map<string, RegExp>()
/** `/api/projects/:id/secrets` → the path and everything under it, a parameter standing for one segment. */
const pattern = (path: string): RegExp => {
  let compiled = patterns.get(path)
  if (!compiled) patterns.set(path, (compiled = new RegExp(`^${path.replace(/[.*+?^${}()|[\]\\]/g, '\\$&').replace(/:\w+/g, '[^/]+')}(?:/|$)`)))
  return compiled
}

/**
 * Whether only the app's own sign-in may use a route (`get`, `/api/account/sessions`): the routes
 * that change credentials, sessions, keys or step-up. That is sign-in's (but `GET /api/auth/me`),
 * the account's but those the slices list as `accountShared` (the activity), and those a slice
 * declares in its own area (`routes.sessionOnly`). The account router mounts by
 * the same list, and the guard below and the API document both ask this, so the three agree.
 */
export function sessionOnlyRoute(features: Listing, method: string, path: string): boolean {
  if (path.startsWith('/api/auth/')) return !(method === 'get' && path === '/api/auth/me')
  if (path === '/api/account' || path.startsWith('/api/account/')) {
    return !features.some((feature) => feature.routes?.accountShared?.some((route) => route.method === method && `/api/account${route.path}` === path))
  }
  return features.some((feature) => feature.routes?.sessionOnly?.some((area) => pattern(area).test(path)))
}

/**
 * Refuses (403), before anything is judged, a request whose `Authorization` header is not the
 * app's own access token (an API key, another app's token) on a route only a session may use.
 * Mounted once, ahead of every route of the API (kernel/http/api.ts).
 */
export function sessionOnlyGuard(ctx: Pick<AppContext, 'features'>): RequestHandler {
  return (req, _res, next) => {
    if (headerIsSession(req.get('authorization'))) return next()
    const method = req.method === 'HEAD' ? 'get' : req.method.toLowerCase()
    const path = `${req.baseUrl}${req.path}`.replace(/\/$/, '')
    next(sessionOnlyRoute(ctx.features, method, path) ? forbidden() : undefined)
  }
}

/** The one route an impersonation may call among those only the account's owner may: its own end. */
const STOP = { method: 'delete', path: '/api/auth/impersonation' }

/**
 * While an admin is signed in as someone else (kernel/auth/impersonation.ts), no route that
 * changes credentials, sessions, keys or step-up, nor the account's deletion, is the admin's to
 * call: exactly the routes only the app's own sign-in may use (above: /api/auth but `GET /me`,
 * /api/account but the shared ones, and every slice's `sessionOnly` areas, a layer's included),
 * so one list guards both. Asked by authentication for an impersonation's requests only; step-up
 * itself is refused in kernel/auth/require-confirmed.ts.
 */
export function impersonationRefuses(features: Listing, req: Request): boolean {
  const method = req.method === 'HEAD' ? 'get' : req.method.toLowerCase()
  const path = `${req.baseUrl}${req.path}`.replace(/\/$/, '')
  if (method === STOP.method && path === STOP.path) return false
  return sessionOnlyRoute(features, method, path)
}
