import type { RequestHandler } from 'express'
import { z } from 'zod'
import { emailField, mayMail, newestEventId, rememberField, requestLocale, translatorOf, validate, type AppContext } from '../../../kernel/index.js'
import { dispatchPasswordlessJob } from '../jobs.js'
import { bindBrowser } from '../services/binding.js'

export const requestSignInSchema = z.object({
  email: emailField,
  remember: rememberField,
  // A CAPTCHA's token, where one is asked for: read by no one here.
  captcha: z.string().max(10_000).optional(),
})

/**
 * `POST /api/auth/email-sign-in`: the same answer and the same work for every address (the job
 * decides whether there is anyone to mail), and never waits for the mail. The browser is bound
 * to the request by its cookie whatever the address.
 */
export function requestSignIn(ctx: AppContext): RequestHandler {
  return async (req, res) => {
    const { email, remember } = validate(requestSignInSchema, req.body)
    const bindingHash = bindBrowser(res, ctx)
    if (await mayMail(ctx, email)) {
      await dispatchPasswordlessJob(ctx.queue, 'passwordless:sign-in', { email, bindingHash, remember: remember ?? false, eventsUpTo: await newestEventId(), locale: requestLocale(req) })
    }
    res.status(202).json({ message: translatorOf(req)('passwordless.sent') })
  }
}
