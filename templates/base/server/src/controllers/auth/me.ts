import type { RequestHandler } from 'express'
import { unauthenticated } from '../../http/errors.js'
import { findUserById, serializeUser } from '../../services/users.js'

export function me(): RequestHandler {
  return async (req, res) => {
    const user = req.auth ? await findUserById(req.auth.id) : null
    // A user deleted since the access token was issued is signed out.
    if (!user) throw unauthenticated()
    res.json({ user: serializeUser(user) })
  }
}
