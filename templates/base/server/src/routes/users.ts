import { Router } from 'express'
import type { AppContext } from '../kernel/context.js'
import { deleteUsers, deleteUsersSchema } from '../controllers/users/delete-users.js'
import { listUserActivity } from '../controllers/users/list-user-activity.js'
import { listUsers } from '../controllers/users/list-users.js'
import { revokeUserSessions } from '../controllers/users/revoke-user-sessions.js'
import { updateUser, updateUserSchema } from '../controllers/users/update-user.js'
import { authenticate } from '../kernel/auth/authenticate.js'
import { precognitive } from '../kernel/http/precognition.js'
import { requireConfirmed } from '../kernel/auth/require-confirmed.js'
import { requireRole } from '../kernel/auth/require-role.js'

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
  router.get('/:id/activity', ...admin, listUserActivity())
  return router
}
