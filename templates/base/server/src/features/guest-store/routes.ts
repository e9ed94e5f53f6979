import { Router } from 'express'
import { precognitive, type RateLimiters } from '../../kernel/index.js'
import { showSession } from './controllers/show-session.js'
import { updateSession, updateSessionSchema } from './controllers/update-session.js'

/** `/api/session`: the guest store's values, kept before sign-in (kernel/guest-store/). */
export function guestStoreRoutes(limits: RateLimiters): Router {
  const router = Router()
  router.get('/', showSession())
  router.patch('/', precognitive(updateSessionSchema), ...limits.sessionCreate, updateSession())
  return router
}
