import type { RequestHandler } from 'express'
import type { AppContext } from '../context.js'
import { unauthenticated } from '../http/errors.js'
import { impersonatedMeBody } from '../services/users.js'

/**
 * The user as the authentication middleware just loaded it (see kernel/auth/auth-cache.ts), and
 * the admin signed in as them, if any (`impersonator`, null otherwise: the cached body as it is).
 */
export function me(ctx: AppContext): RequestHandler {
  return async (req, res) => {
    const cache = ctx.authCache
    const user = req.auth ? (cache.cachedUser(req.auth.id) ?? (await cache.user(req.auth.id))) : undefined
    if (!user) throw unauthenticated()
    if (req.impersonatorId === undefined) return void res.type('json').send(user.meBody)
    const admin = cache.cachedUser(req.impersonatorId) ?? (await cache.user(req.impersonatorId))
    res.type('json').send(impersonatedMeBody(user, { id: req.impersonatorId, name: admin?.name ?? '' }))
  }
}
