import { Router } from 'express'
import { showSession } from '../controllers/session/show-session.js'
import { updateSession } from '../controllers/session/update-session.js'

export function sessionRoutes(): Router {
  const router = Router()
  router.get('/', showSession())
  router.patch('/', updateSession())
  return router
}
