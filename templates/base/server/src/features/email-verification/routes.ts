import type { Router } from 'express'
import { precognitive, type AppContext, type RateLimiters } from '../../kernel/index.js'
import { resendVerification, resendVerificationSchema } from './controllers/resend-verification.js'
import { verifyEmail, verifyEmailSchema } from './controllers/verify-email.js'

/** On /api/auth: the mailed link that proves an address, and asking for it again. */
export function verificationRoutes(router: Router, ctx: AppContext, limits: RateLimiters): void {
  router.post('/verify-email', precognitive(verifyEmailSchema), verifyEmail(ctx))
  router.post('/resend-verification', precognitive(resendVerificationSchema), ...limits.resendVerification, resendVerification(ctx))
}
