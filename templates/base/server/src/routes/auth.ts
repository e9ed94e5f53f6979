import { Router, type Express, type RequestHandler } from 'express'
import type { AppContext } from '../context.js'
import { forgotPassword, forgotPasswordSchema } from '../controllers/auth/forgot-password.js'
import { login, loginSchema } from '../controllers/auth/login.js'
import { logoutAll } from '../controllers/auth/logout-all.js'
import { logout } from '../controllers/auth/logout.js'
import { me } from '../controllers/auth/me.js'
import { refreshToken, refreshTokenSchema } from '../controllers/auth/refresh-token.js'
import { register, registerSchema } from '../controllers/auth/register.js'
import { resendVerification, resendVerificationSchema } from '../controllers/auth/resend-verification.js'
import { resetPassword, resetPasswordSchema } from '../controllers/auth/reset-password.js'
import { verifyEmail, verifyEmailSchema } from '../controllers/auth/verify-email.js'
import { forbidden } from '../http/errors.js'
import { authenticate, headerIsSession } from '../middleware/authenticate.js'
import { precognitive } from '../middleware/precognition.js'
import type { RateLimiters } from '../middleware/rate-limits.js'

/**
 * `GET /api/auth/me`, the route every page load asks for first: matched by the app's own router,
 * ahead of the API's routers (routes/api.ts mounts it first), with the API's middleware
 * (`common`). Passing through two routers (the /api mount and /auth) cost it about a tenth of its
 * throughput, measured with two builds serving side by side on one core.
 */
export function mountMe(app: Express, ctx: AppContext, common: RequestHandler): void {
  app.get('/api/auth/me', common, authenticate(ctx), me(ctx))
}

export function authRoutes(ctx: AppContext, limiters: RateLimiters): Router {
  const router = Router()
  // GET /me: mountMe above. Every other route here is the app's own sign-in's: a key (any
  // `Authorization` that is not the app's access token) is refused before it is even judged.
  router.use((req, _res, next) => next(headerIsSession(req.get('authorization')) ? undefined : forbidden()))
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
