import type { RequestHandler } from 'express'
import { z } from 'zod'
import { emailField, fieldError, invalidToken, msg, tokenField, validate, type AppContext } from '../../../kernel/index.js'
import { accountFor, proveMailbox } from '../services/accounts.js'
import { bindingOf, unbindBrowser } from '../services/binding.js'
import { finishSignIn } from '../services/finish.js'
import { checkCode, openLink, useSignIn } from '../services/sign-ins.js'
import { codeField, markWrong } from './fields.js'

export const verifySignInSchema = z
  .object({ email: emailField.optional(), code: codeField('code').optional(), token: tokenField.optional() })
  .superRefine((input, context) => {
    if (input.token !== undefined) return
    if (input.email === undefined) context.addIssue({ code: 'custom', path: ['email'], message: msg('validation.required', { field: 'email' }) })
    if (input.code === undefined) context.addIssue({ code: 'custom', path: ['code'], message: msg('validation.required', { field: 'code' }) })
  })

const wrongCode = () => fieldError('code', 'passwordless.codeInvalid')

/**
 * `POST /api/auth/email-sign-in/verify`: `{email, code}` signs in the browser it is typed in;
 * `{token}` (the link) signs in the browser that asked for it. Opened anywhere else, the link
 * answers `{other_device: true}` and changes nothing: that page asks whether to let the asking
 * browser in (controllers/approve-sign-in.ts).
 */
export function verifySignIn(ctx: AppContext): RequestHandler {
  return async (req, res) => {
    const input = validate(verifySignInSchema, req.body)
    const byLink = input.token !== undefined
    const refusal = byLink ? invalidToken : wrongCode
    const row = byLink ? await openLink(input.token!) : await checkCode(ctx.env.COOKIE_SECRET, input.email!, input.code!)
    if (!row) {
      markWrong(res.locals, !byLink)
      throw refusal()
    }
    if (byLink && row.bindingHash !== bindingOf(req, ctx)) return void res.json({ other_device: true })
    if (!(await useSignIn(row))) throw refusal()
    const user = await accountFor(ctx, row)
    if (!user) throw refusal()
    await proveMailbox(ctx, req, user)
    if (row.bindingHash === bindingOf(req, ctx)) unbindBrowser(res, ctx)
    const answer = await finishSignIn(req, res, ctx, user, row.remember)
    if (!answer) throw refusal()
    res.json(answer)
  }
}
