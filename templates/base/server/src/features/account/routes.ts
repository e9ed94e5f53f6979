import type { RequestHandler, Router } from 'express'
import { authenticateIfPossible, precognitive, requireConfirmed, type AppContext, type RateLimiters } from '../../kernel/index.js'
import { confirmEmail, confirmEmailSchema } from './controllers/confirm-email-change.js'
import { deleteAccount, deleteAccountSchema } from './controllers/delete-account.js'
import { emailChangeSchema, requestEmailChange } from './controllers/request-email-change.js'
import { updatePassword, updatePasswordSchema } from './controllers/update-password.js'
import { updateProfile, updateProfileSchema } from './controllers/update-profile.js'

/** On /api/account ahead of authentication: the mailed link may be opened signed out, on another device. */
export function openAccountRoutes(router: Router, ctx: AppContext): void {
  router.post('/email/confirm', authenticateIfPossible(ctx), precognitive(confirmEmailSchema), confirmEmail(ctx))
}

/** On /api/account, the app's own sign-in alone. Step-up: the sensitive routes need a live confirmation; a password field still confirms. */
export function accountRoutes(router: Router, ctx: AppContext, passwordChecked: RequestHandler[], limits: RateLimiters): void {
  const confirmed = (passwordField: string) => [...passwordChecked, requireConfirmed(ctx, { passwordField })]
  router.patch('/profile', precognitive(updateProfileSchema), updateProfile(ctx))
  router.post('/email', precognitive(emailChangeSchema), ...confirmed('password'), ...limits.emailChange, requestEmailChange(ctx))
  router.put('/password', precognitive(updatePasswordSchema), ...confirmed('current_password'), updatePassword(ctx))
  router.delete('/', precognitive(deleteAccountSchema), ...confirmed('password'), deleteAccount(ctx))
}
