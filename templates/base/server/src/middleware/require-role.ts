import type { RequestHandler } from 'express'
import { forbidden, unauthenticated } from '../http/errors.js'
import { hasScope, missingScope } from '../kernel/auth/principal.js'
import type { RoleName } from '../models/index.js'

/** Place after `authenticate`: 401 without an identity, 403 with another role, or with a key that lacks the role's scope. */
export function requireRole(role: RoleName): RequestHandler {
  return (req, _res, next) => {
    if (!req.auth) throw unauthenticated()
    if (req.auth.role !== role) throw forbidden()
    if (!hasScope(req.principal, role)) throw missingScope()
    next()
  }
}
