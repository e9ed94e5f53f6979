import { Router } from 'express'
import { authenticate, precognitive, requireConfirmed, requireRole, type AppContext } from '../../kernel/index.js'
import { deleteUsers, deleteUsersSchema } from './controllers/delete-users.js'
import { impersonateUser, stopImpersonating } from './controllers/impersonation.js'
import { listUsers } from './controllers/list-users.js'
import { revokeUserSessions } from './controllers/revoke-user-sessions.js'
import { suspendSchema, suspendUser, unsuspendUser } from './controllers/suspension.js'
import { updateUser, updateUserSchema } from './controllers/update-user.js'

export function userRoutes(ctx: AppContext): Router {
  const router = Router()
  const admin = [authenticate(ctx), requireRole('admin')]
  router.get('/', ...admin, listUsers(ctx))
  // Step-up on what could take accounts over or lock their owners out (kernel/security/confirmation.ts).
  const confirmed = requireConfirmed(ctx)
  const roleChange = requireConfirmed(ctx, { when: (req) => (req.body as { role?: unknown } | undefined)?.role !== undefined })
  router.delete('/', ...admin, precognitive(deleteUsersSchema), confirmed, deleteUsers(ctx))
  router.patch('/:id', ...admin, precognitive(updateUserSchema), roleChange, updateUser(ctx))
  router.delete('/:id/sessions', ...admin, confirmed, revokeUserSessions(ctx))
  router.post('/:id/suspension', ...admin, precognitive(suspendSchema), confirmed, suspendUser(ctx))
  router.delete('/:id/suspension', ...admin, confirmed, unsuspendUser(ctx))
  router.post('/:id/impersonation', ...admin, confirmed, impersonateUser(ctx))
  return router
}

/** On /api/auth: the impersonation's own end, the one sign-in route an impersonation may call. */
export function impersonationRoutes(router: Router, ctx: AppContext): void {
  router.delete('/impersonation', authenticate(ctx), stopImpersonating(ctx))
}
