import { Router } from 'express'
import type { AppConfig } from '../context.js'
import { deleteUsers } from '../controllers/users/delete-users.js'
import { listUsers } from '../controllers/users/list-users.js'
import { revokeUserSessions } from '../controllers/users/revoke-user-sessions.js'
import { updateUser } from '../controllers/users/update-user.js'
import { authenticate } from '../middleware/authenticate.js'
import { requireRole } from '../middleware/require-role.js'

export function userRoutes(config: AppConfig): Router {
  const router = Router()
  const admin = [authenticate(config), requireRole('admin')]
  router.get('/', ...admin, listUsers())
  router.delete('/', ...admin, deleteUsers(config))
  router.patch('/:id', ...admin, updateUser(config))
  router.delete('/:id/sessions', ...admin, revokeUserSessions(config))
  return router
}
