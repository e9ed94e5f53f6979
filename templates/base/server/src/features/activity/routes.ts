import type { Router } from 'express'
import { authenticate, requireRole, type AppContext, type SharedRoute } from '../../kernel/index.js'
import { exportActivity } from './controllers/export-activity.js'
import { listAccountActivity } from './controllers/list-account-activity.js'
import { listUserActivity } from './controllers/list-user-activity.js'

/** On /api/account, open to keys with `read`: the account's own credential events. */
export const accountActivityRoutes: SharedRoute<AppContext>[] = [{ method: 'get', path: '/activity', handlers: () => [listAccountActivity()] }]

/** On /api, for admins: one user's events, and every account's as an export. */
export function adminActivityRoutes(router: Router, ctx: AppContext): void {
  const admin = [authenticate(ctx), requireRole('admin')]
  router.get('/users/:id/activity', ...admin, listUserActivity())
  router.get('/activity/export', ...admin, exportActivity(ctx))
}
