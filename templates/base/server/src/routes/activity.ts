import { Router } from 'express'
import type { AppContext } from '../context.js'
import { exportActivity } from '../controllers/activity/export-activity.js'
import { authenticate } from '../middleware/authenticate.js'
import { requireRole } from '../middleware/require-role.js'

/** Credential events across all accounts, for admins (each account's own list is under /account and /users/:id). */
export function activityRoutes(ctx: AppContext): Router {
  const router = Router()
  router.get('/export', authenticate(ctx), requireRole('admin'), exportActivity(ctx))
  return router
}
