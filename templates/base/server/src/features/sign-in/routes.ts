import type { Router } from 'express'
import { authenticate, gatesFor, precognitive, type AppContext, type RateLimiters } from '../../kernel/index.js'
import { forgotPassword, forgotPasswordSchema } from './controllers/forgot-password.js'
import { login, loginSchema } from './controllers/login.js'
import { logoutAll } from './controllers/logout-all.js'
import { logout } from './controllers/logout.js'
import { refreshToken, refreshTokenSchema } from './controllers/refresh-token.js'
import { register, registerSchema } from './controllers/register.js'
import { resetPassword, resetPasswordSchema } from './controllers/reset-password.js'

/**
 * On /api/auth. Live validation (kernel/http/precognition.ts) answers before any rate limit counts;
 * the layers' gates of an action (a challenge to answer) come after its limits.
 */
export function signInRoutes(router: Router, ctx: AppContext, limits: RateLimiters): void {
  router.post('/register', precognitive(registerSchema(ctx)), ...limits.register, ...gatesFor(ctx, 'register'), register(ctx))
  router.post('/login', precognitive(loginSchema), ...limits.login, ...gatesFor(ctx, 'login'), login(ctx, limits))
  router.post('/forgot-password', precognitive(forgotPasswordSchema), ...limits.forgotPassword, ...gatesFor(ctx, 'forgot-password'), forgotPassword(ctx))
  router.post('/reset-password', precognitive(resetPasswordSchema), resetPassword(ctx))
  router.post('/refresh-token', precognitive(refreshTokenSchema), refreshToken(ctx))
  router.post('/logout', authenticate(ctx), logout(ctx))
  router.post('/logout-all', authenticate(ctx), logoutAll(ctx))
}
