import { Router } from 'express'
import type { AppContext } from '../context.js'
import { confirmEmail, confirmEmailSchema } from '../controllers/account/confirm-email-change.js'
import { confirmIdentity } from '../controllers/account/confirm-identity.js'
import { deleteAccount, deleteAccountSchema } from '../controllers/account/delete-account.js'
import { listAccountActivity } from '../controllers/account/list-activity.js'
import { listAccountSessions } from '../controllers/account/list-sessions.js'
import { emailChangeSchema, requestEmailChange } from '../controllers/account/request-email-change.js'
import { revokeOtherSessions, revokeOtherSessionsSchema } from '../controllers/account/revoke-other-sessions.js'
import { revokeAccountSession } from '../controllers/account/revoke-session.js'
import { showConfirmation } from '../controllers/account/show-confirmation.js'
import { updatePassword, updatePasswordSchema } from '../controllers/account/update-password.js'
import { updateProfile, updateProfileSchema } from '../controllers/account/update-profile.js'
import { sessionOnly } from '../kernel/auth/principal.js'
import { authenticate, authenticateIfPossible } from '../middleware/authenticate.js'
import { precognitive } from '../middleware/precognition.js'
import type { RateLimiters } from '../middleware/rate-limits.js'
import { requireConfirmed } from '../middleware/require-confirmed.js'
import { recordWrongConfirmations } from '../middleware/wrong-confirmations.js'
import { layerConfirmMethods } from '../security/confirmation.js'

/** The signed-in user's own account. */
export function accountRoutes(ctx: AppContext, limits: RateLimiters): Router {
  const router = Router()
  // The link may be opened signed out, on another device.
  router.post('/email/confirm', authenticateIfPossible(ctx), precognitive(confirmEmailSchema), confirmEmail(ctx))

  router.use(authenticate(ctx), ...limits.accountWrites)
  // The one account route a key may read; everything after is the app's own sign-in's alone.
  router.get('/activity', listAccountActivity())
  router.use(sessionOnly)
  // Wrong passwords (and wrong confirmations) count per session and per user across these routes (then 429 for all of them).
  const passwordChecked = limits.accountPassword
  // Step-up: the sensitive routes need a live confirmation; a password field still confirms.
  const confirmed = (passwordField?: string) => [...passwordChecked, requireConfirmed(ctx, { passwordField })]
  router.get('/confirm', showConfirmation(ctx))
  router.post('/confirm', ...passwordChecked, confirmIdentity(ctx))
  for (const method of layerConfirmMethods(ctx.features)) method.routes?.(router, ctx, passwordChecked)

  router.patch('/profile', precognitive(updateProfileSchema), updateProfile(ctx))
  router.post('/email', precognitive(emailChangeSchema), ...confirmed('password'), ...limits.emailChange, requestEmailChange(ctx))
  router.put('/password', precognitive(updatePasswordSchema), ...confirmed('current_password'), updatePassword(ctx))
  router.delete('/', precognitive(deleteAccountSchema), ...confirmed('password'), deleteAccount(ctx))
  router.get('/sessions', listAccountSessions())
  router.delete('/sessions', precognitive(revokeOtherSessionsSchema), ...confirmed('password'), revokeOtherSessions(ctx))
  router.delete('/sessions/:id', ...confirmed(), revokeAccountSession(ctx))
  for (const feature of ctx.features) feature.routes?.account?.(router, ctx, passwordChecked)
  router.use(recordWrongConfirmations(ctx))
  return router
}
