import { Router } from 'express'
import type { AppContext } from '../context.js'
import { forgotPassword, forgotPasswordSchema } from '../controllers/auth/forgot-password.js'
import { login, loginSchema } from '../controllers/auth/login.js'
import { logoutAll } from '../controllers/auth/logout-all.js'
import { logout } from '../controllers/auth/logout.js'
import { refreshToken, refreshTokenSchema } from '../controllers/auth/refresh-token.js'
import { register, registerSchema } from '../controllers/auth/register.js'
import { resendVerification, resendVerificationSchema } from '../controllers/auth/resend-verification.js'
import { resetPassword, resetPasswordSchema } from '../controllers/auth/reset-password.js'
import { verifyEmail, verifyEmailSchema } from '../controllers/auth/verify-email.js'
import { authenticate } from '../middleware/authenticate.js'
import { precognitive } from '../middleware/precognition.js'
import type { RateLimiters } from '../middleware/rate-limits.js'

export function authRoutes(ctx: AppContext, limiters: RateLimiters): Router {
  const router = Router()
  // GET /me is mounted in routes/api.ts, ahead of this router.
  // Live validation (middleware/precognition.ts) answers before any rate limit counts.
  router.post('/register', precognitive(registerSchema(ctx)), ...limiters.register, register(ctx))
  router.post('/login', precognitive(loginSchema), ...limiters.login, login(ctx, limiters))
  router.post('/forgot-password', precognitive(forgotPasswordSchema), ...limiters.forgotPassword, forgotPassword(ctx))
  router.post('/reset-password', precognitive(resetPasswordSchema), resetPassword(ctx))
  router.post('/verify-email', precognitive(verifyEmailSchema), verifyEmail(ctx))
  router.post('/resend-verification', precognitive(resendVerificationSchema), ...limiters.resendVerification, resendVerification(ctx))
  router.post('/refresh-token', precognitive(refreshTokenSchema), refreshToken(ctx))
  for (const feature of ctx.features) feature.routes?.auth?.(router, ctx)

  router.post('/logout', authenticate(ctx), logout(ctx))
  router.post('/logout-all', authenticate(ctx), logoutAll(ctx))
  return router
}
