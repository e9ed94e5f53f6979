import type { RequestHandler } from 'express'
import { z } from 'zod'
import { emailField, mayMail, newestEventId, requestLocale, translatorOf, validate, type AppContext } from '../../../kernel/index.js'

export const resendVerificationSchema = z.object({ email: emailField })

/** Same answer, same work for every address: the job decides whether a link is due (past the address's cap, none). */
export function resendVerification(ctx: AppContext): RequestHandler {
  return async (req, res) => {
    const { email } = validate(resendVerificationSchema, req.body)
    if (await mayMail(ctx, email)) await ctx.queue.dispatch('user:verify-email', { email, reason: 'resend', eventsUpTo: await newestEventId(), locale: requestLocale(req) })
    res.json({ message: translatorOf(req)('auth.verificationSent') })
  }
}
