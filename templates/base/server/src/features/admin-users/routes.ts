import { Router } from 'express'
import { authenticate, precognitive, requireConfirmed, requireRole, type AppContext } from '../../kernel/index.js'
import { deleteUsers, deleteUsersSchema } from './controllers/delete-users.js'
import { listUsers } from './controllers/list-users.js'
import { revokeUserSessions } from './controllers/revoke-user-sessions.js'
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
  return router
}
