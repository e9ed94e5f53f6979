import type { Request } from 'express'
import { HttpError } from '../http/errors.js'

/**
 * Who a request is and what it may do, set beside `req.auth` by authentication. The app's own
 * sign-in (its access cookie, or that access token sent by a client as `Authorization: Bearer`)
 * is a `session` and may do all its user may; any other way in (an API key, an access token the
 * app issued to another app) comes from an authenticator of a layer and carries scopes.
 */
export interface Principal {
  /** `session`, or the name of the authenticator that let it in (`api-key`). */
  via: string
  /** What it may do: `all` for a session; else `read` (GET routes), `write` (the others), `admin` (admin routes). */
  scopes: 'all' | readonly string[]
  /** The credential's id when it is not a session (an API key's), for its own limits and last use. */
  credentialId?: string
  /** Set when the credential acts within one resource of a layer only (a team's key, its team). */
  restriction?: Restriction
}

/**
 * A credential held to one resource of a layer, beyond its scopes: the kernel asks `allows` of
 * every request the credential makes (outside it: 403, as a missing scope), and the layer that
 * owns the resource reads `kind`, `id` and `role` where it checks access to it (a team's
 * membership middleware caps the role there). The kernel names no layer: `kind` is the owner's word.
 */
export interface Restriction {
  /** What kind of resource, as the layer that owns it names it (`team`). */
  kind: string
  id: number
  /** The most the credential may do there, in that layer's roles; its holder's own role there may be less. */
  role?: string
  /** Whether the request stays within the resource (its routes, or a few the credential may call besides). */
  allows(req: Request): boolean
}

export const SESSION: Principal = Object.freeze({ via: 'session', scopes: 'all' })

export const hasScope = (principal: Principal | undefined, scope: string): boolean =>
  principal === undefined || principal.scopes === 'all' || principal.scopes.includes(scope)

/** The scope a request's method needs: reading is `read`, anything else `write`. */
export const scopeOf = (method: string): string => (method === 'GET' || method === 'HEAD' ? 'read' : 'write')

export const missingScope = () => new HttpError(403, 'errors.scope')
