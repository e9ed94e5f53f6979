import { Router } from 'express'
import type { AppContext } from '../kernel/context.js'
import { exportActivity } from '../controllers/activity/export-activity.js'
import { authenticate } from '../kernel/auth/authenticate.js'
import { requireRole } from '../kernel/auth/require-role.js'

/** Credential events across all accounts, for admins (each account's own list is under /account and /users/:id). */
export function activityRoutes(ctx: AppContext): Router {
  const router = Router()
  router.get('/export', authenticate(ctx), requireRole('admin'), exportActivity(ctx))
  return router
}
