import { Router } from 'express'
import type { AppConfig } from '../context.js'
import { deleteUsers, deleteUsersSchema } from '../controllers/users/delete-users.js'
import { listUserActivity } from '../controllers/users/list-user-activity.js'
import { listUsers } from '../controllers/users/list-users.js'
import { revokeUserSessions } from '../controllers/users/revoke-user-sessions.js'
import { updateUser, updateUserSchema } from '../controllers/users/update-user.js'
import { authenticate } from '../middleware/authenticate.js'
import { precognitive } from '../middleware/precognition.js'
import { requireRole } from '../middleware/require-role.js'

export function userRoutes(config: AppConfig): Router {
  const router = Router()
  const admin = [authenticate(config), requireRole('admin')]
  router.get('/', ...admin, listUsers(config))
  router.delete('/', ...admin, precognitive(deleteUsersSchema), deleteUsers(config))
  router.patch('/:id', ...admin, precognitive(updateUserSchema), updateUser(config))
  router.delete('/:id/sessions', ...admin, revokeUserSessions(config))
  router.get('/:id/activity', ...admin, listUserActivity())
  return router
}
