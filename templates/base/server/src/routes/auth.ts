import { Router } from 'express'
import type { AppConfig } from '../context.js'
import { forgotPassword } from '../controllers/auth/forgot-password.js'
import { login } from '../controllers/auth/login.js'
import { logoutAll } from '../controllers/auth/logout-all.js'
import { logout } from '../controllers/auth/logout.js'
import { me } from '../controllers/auth/me.js'
import { refreshToken } from '../controllers/auth/refresh-token.js'
import { register } from '../controllers/auth/register.js'
import { resendVerification } from '../controllers/auth/resend-verification.js'
import { resetPassword } from '../controllers/auth/reset-password.js'
import { verifyEmail } from '../controllers/auth/verify-email.js'
import { authenticate } from '../middleware/authenticate.js'
import type { RateLimiters } from '../middleware/rate-limits.js'

export function authRoutes(config: AppConfig, limiters: RateLimiters): Router {
  const router = Router()
  // The route every page load asks for first.
  router.get('/me', authenticate(config), me(config))
  router.post('/register', ...limiters.register, register(config))
  router.post('/login', ...limiters.login, login(config, limiters))
  router.post('/forgot-password', ...limiters.forgotPassword, forgotPassword(config))
  router.post('/reset-password', resetPassword(config))
  router.post('/verify-email', verifyEmail(config))
  router.post('/resend-verification', ...limiters.resendVerification, resendVerification(config))
  router.post('/refresh-token', refreshToken(config))

  router.post('/logout', authenticate(config), logout(config))
  router.post('/logout-all', authenticate(config), logoutAll(config))
  return router
}
