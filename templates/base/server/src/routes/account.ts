import { Router } from 'express'
import type { AppConfig } from '../context.js'
import { confirmEmail } from '../controllers/account/confirm-email-change.js'
import { deleteAccount } from '../controllers/account/delete-account.js'
import { listAccountSessions } from '../controllers/account/list-sessions.js'
import { requestEmailChange } from '../controllers/account/request-email-change.js'
import { revokeOtherSessions } from '../controllers/account/revoke-other-sessions.js'
import { revokeAccountSession } from '../controllers/account/revoke-session.js'
import { updatePassword } from '../controllers/account/update-password.js'
import { updateProfile } from '../controllers/account/update-profile.js'
import { authenticate, authenticateIfPossible } from '../middleware/authenticate.js'
import type { RateLimiters } from '../middleware/rate-limits.js'

/** The signed-in user's own account (CONTRACT §2 "Account"). */
export function accountRoutes(config: AppConfig, limits: RateLimiters): Router {
  const router = Router()
  // The link may be opened signed out, on another device.
  router.post('/email/confirm', authenticateIfPossible(config), confirmEmail(config))

  router.use(authenticate(config))
  // Wrong passwords count per user across these routes (5 a minute, then 429 for all of them).
  const passwordChecked = limits.accountPassword
  router.patch('/profile', updateProfile(config))
  router.post('/email', ...passwordChecked, ...limits.emailChange, requestEmailChange(config))
  router.put('/password', ...passwordChecked, updatePassword(config))
  router.delete('/', ...passwordChecked, deleteAccount(config))
  router.get('/sessions', listAccountSessions())
  router.delete('/sessions', ...passwordChecked, revokeOtherSessions(config))
  router.delete('/sessions/:id', revokeAccountSession(config))
  return router
}
