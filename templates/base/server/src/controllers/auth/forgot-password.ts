import type { RequestHandler } from 'express'
import { z } from 'zod'
import type { AppContext } from '../../context.js'
import { emailField } from '../../http/schemas.js'
import { validate } from '../../http/validate.js'
import { newestEventId } from '../../security/voided-since.js'

export const forgotPasswordSchema = z.object({ email: emailField })

/** Same answer, same work for every address: the job decides whether there is anyone to mail. */
export function forgotPassword(ctx: AppContext): RequestHandler {
  return async (req, res) => {
    const { email } = validate(forgotPasswordSchema, req.body)
    await ctx.queue.dispatch('user:reset-password', { email, eventsUpTo: await newestEventId() })
    res.json({ message: 'If that e-mail address has an account, a password reset link is on its way.' })
  }
}
