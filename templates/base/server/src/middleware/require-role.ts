import type { RequestHandler } from 'express'
import { forbidden, unauthenticated } from '../http/errors.js'
import type { RoleName } from '../models/index.js'

/** Place after `authenticate`: 401 without an identity, 403 with another role. */
export function requireRole(role: RoleName): RequestHandler {
  return (req, _res, next) => {
    if (!req.auth) throw unauthenticated()
    if (req.auth.role !== role) throw forbidden()
    next()
  }
}
