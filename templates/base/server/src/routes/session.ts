import { Router } from 'express'
import type { RateLimiters } from '../kernel/http/rate-limits.js'
import { showSession } from '../controllers/session/show-session.js'
import { updateSession, updateSessionSchema } from '../controllers/session/update-session.js'
import { precognitive } from '../kernel/http/precognition.js'

export function sessionRoutes(limits: RateLimiters): Router {
  const router = Router()
  router.get('/', showSession())
  router.patch('/', precognitive(updateSessionSchema), ...limits.sessionCreate, updateSession())
  return router
}
