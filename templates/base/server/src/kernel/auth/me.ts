import type { RequestHandler } from 'express'
import type { AppContext } from '../context.js'
import { unauthenticated } from '../http/errors.js'

/** The user as the authentication middleware just loaded it (see kernel/auth/auth-cache.ts). */
export function me(ctx: AppContext): RequestHandler {
  return async (req, res) => {
    const cache = ctx.authCache
    const user = req.auth ? (cache.cachedUser(req.auth.id) ?? (await cache.user(req.auth.id))) : undefined
    if (!user) throw unauthenticated()
    res.type('json').send(user.meBody)
  }
}
