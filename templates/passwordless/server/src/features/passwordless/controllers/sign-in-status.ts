import type { RequestHandler } from 'express'
import { fieldError, type AppContext } from '../../../kernel/index.js'
import { accountFor, proveMailbox } from '../services/accounts.js'
import { bindingOf, unbindBrowser } from '../services/binding.js'
import { finishSignIn } from '../services/finish.js'
import { collectApproved } from '../services/sign-ins.js'

const expired = () => fieldError('token', 'passwordless.requestExpired')

/**
 * `POST /api/auth/email-sign-in/status`, polled by the page that asked: 202 `{status: "pending"}`
 * until the link is confirmed on another device, then the sign-in's answer, once. A browser
 * whose binding is gone (it lives as long as the mail) has nothing to wait for. Every address
 * waits alike: one without an account is pending until its binding ends.
 */
export function signInStatus(ctx: AppContext): RequestHandler {
  return async (req, res) => {
    const binding = bindingOf(req, ctx)
    if (!binding) throw expired()
    const row = await collectApproved(binding)
    if (!row) return void res.status(202).json({ status: 'pending' })
    unbindBrowser(res, ctx)
    const user = await accountFor(ctx, row)
    if (!user) throw expired()
    await proveMailbox(ctx, req, user)
    const answer = await finishSignIn(req, res, ctx, user, row.remember)
    if (!answer) throw expired()
    res.json(answer)
  }
}
