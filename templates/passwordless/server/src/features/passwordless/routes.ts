import type { Request, Response, Router } from 'express'
import { type AppContext, emailIpKeyOf, emailKeyOf, gatesFor, ipOf, limiterFactory, precognitive, rateLimitsOf } from '../../kernel/index.js'
import { config } from './config.js'
import { approveSignInRequest, approveSignInSchema } from './controllers/approve-sign-in.js'
import { requestSignIn, requestSignInSchema } from './controllers/request-sign-in.js'
import { signInStatus } from './controllers/sign-in-status.js'
import { verifySignIn, verifySignInSchema } from './controllers/verify-sign-in.js'

const wrong = (_req: Request, res: Response) => res.locals.wrongEmailSignIn !== undefined
const wrongCode = (_req: Request, res: Response) => res.locals.wrongEmailSignIn === 'code'

/**
 * On /api/auth. Asking for a mail counts like forgot-password (per IP, per address and IP, and
 * the address's own mail quota in the handler); wrong codes count per address from anywhere
 * (past the limit no code of the address is looked at, the right one included: the lockout)
 * and, with wrong links, per IP. Live validation answers before any limit counts.
 */
export function passwordlessRoutes(router: Router, ctx: AppContext): void {
  const limiter = limiterFactory(ctx)
  const limits = rateLimitsOf(config, ctx)
  const asking = [
    limiter({ name: 'email-sign-in-ip', limit: limits.emailSignInPerIp, key: ipOf }),
    limiter({ name: 'email-sign-in-email-ip', limit: limits.emailSignInPerEmailIp, key: emailIpKeyOf }),
    limiter({ name: 'email-sign-in-email-ip-hour', limit: limits.emailSignInPerEmailIpHourly, key: emailIpKeyOf }),
  ]
  const wrongOnes = [
    limiter({ name: 'email-sign-in-code-address', limit: limits.emailSignInCodePerAddress, key: emailKeyOf, failuresOnly: true, failed: wrongCode, skip: (req) => emailKeyOf(req) === '' }),
    limiter({ name: 'email-sign-in-wrong-ip', limit: limits.emailSignInWrongPerIp, key: ipOf, failuresOnly: true, failed: wrong }),
  ]
  // A layer that guards actions (a CAPTCHA) asks this one by its name; none: an empty list.
  router.post('/email-sign-in', precognitive(requestSignInSchema), ...asking, ...gatesFor(ctx, 'email-sign-in'), requestSignIn(ctx))
  router.post('/email-sign-in/verify', precognitive(verifySignInSchema), ...wrongOnes, verifySignIn(ctx))
  router.post('/email-sign-in/approve', precognitive(approveSignInSchema), ...wrongOnes, approveSignInRequest())
  router.post('/email-sign-in/status', limiter({ name: 'email-sign-in-poll-ip', limit: limits.emailSignInPollPerIp, key: ipOf }), signInStatus(ctx))
}
