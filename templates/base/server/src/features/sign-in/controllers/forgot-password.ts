import type { RequestHandler } from 'express'
import { z } from 'zod'
import { emailField, mayMail, newestEventId, requestLocale, translatorOf, validate, type AppContext } from '../../../kernel/index.js'

export const forgotPasswordSchema = z.object({ email: emailField })

/** Same answer, same work for every address: the job decides whether there is anyone to mail (past the address's cap, nobody). */
export function forgotPassword(ctx: AppContext): RequestHandler {
  return async (req, res) => {
    const { email } = validate(forgotPasswordSchema, req.body)
    if (await mayMail(ctx, email)) await ctx.queue.dispatch('user:reset-password', { email, eventsUpTo: await newestEventId(), locale: requestLocale(req) })
    res.json({ message: translatorOf(req)('auth.resetSent') })
  }
}
