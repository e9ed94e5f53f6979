import type { RequestHandler } from 'express'
import { z } from 'zod'
import { currentPasswordField, emailField, events, fieldError, mayMail, recordCredentialEvent, requestLocale, signedInUser, startEmailChange, translatorOf, validate, type AppContext } from '../../../kernel/index.js'

export const emailChangeSchema = z.object({ email: emailField, password: currentPasswordField.optional() })

/** Nothing changes yet: the pending change is made here, and its job mails the link to the new address (kernel/services/email-change.ts). */
export function requestEmailChange(ctx: AppContext): RequestHandler {
  return async (req, res) => {
    const input = validate(emailChangeSchema, req.body)
    const user = await signedInUser(req)
    if (input.email === user.email) throw fieldError('email', 'account.sameEmail')
    // Past the new address's cap (kernel/services/mail-quota.ts) the change waits unmailed, and the answer is the same.
    const mailing = await mayMail(ctx, input.email)
    // The pending change, its job and its event stand or fall together; the job gets only the row's id.
    await recordCredentialEvent(ctx, events.emailChangeRequested, user.id, {
      req,
      change: async (transaction) => {
        const tokenId = await startEmailChange(user.id, input.email, transaction)
        if (mailing) await ctx.queue.dispatch('user:confirm-email', { tokenId, locale: requestLocale(req) }, transaction)
      },
    })
    res.json({ message: translatorOf(req)('account.emailChangeSent') })
  }
}
