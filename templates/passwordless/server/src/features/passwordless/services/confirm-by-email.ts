import type { RequestHandler } from 'express'
import { type AppContext, type AppFeature, fieldError, forbidden, markWrongConfirmation, mayMail, requestLocale, translatorOf, User, validate } from '../../../kernel/index.js'
import { z } from 'zod'
import { codeField } from '../controllers/fields.js'
import { dispatchPasswordlessJob } from '../jobs.js'
import { useConfirmCode } from './confirm-codes.js'

type ConfirmMethod = NonNullable<AppFeature['confirmMethods']>[number]

const schema = z.object({ email_code: codeField('email_code') })

/**
 * Whether the account confirms it's you by a mailed code: only one with no other way to (no
 * password, and nothing another layer offers), whose address is then its one way in, and its
 * one way to confirm. An account that has a password or a second factor keeps confirming with
 * those: a mailbox alone never stands in for them.
 */
async function offersEmail(userId: number, ctx: AppContext): Promise<boolean> {
  const user = await User.findByPk(userId, { attributes: ['id', 'password'] })
  if (!user || user.password !== null) return false
  const others = ctx.features.flatMap((feature) => feature.confirmMethods ?? []).filter((method) => method !== confirmByEmail)
  const offered = await Promise.all(others.map((method) => method.offered(userId, ctx)))
  return offered.flat().length === 0
}

/** `POST /api/account/confirm/email`: mails this session a code (minted by the job), within the address's mail quota. */
function requestConfirmCode(ctx: AppContext): RequestHandler {
  return async (req, res) => {
    const userId = req.auth!.id
    if (!(await offersEmail(userId, ctx))) throw forbidden()
    const user = await User.findByPk(userId, { attributes: ['id', 'email'] })
    if (user && (await mayMail(ctx, user.email))) {
      await dispatchPasswordlessJob(ctx.queue, 'passwordless:confirm-code', { userId, sessionId: req.sessionId!, locale: requestLocale(req) })
    }
    res.status(202).json({ message: translatorOf(req)('passwordless.confirmSent') })
  }
}

/**
 * Confirming it's you (step-up) with `{email_code}`, the code `POST /api/account/confirm/email`
 * mailed to this session. A wrong one counts like a wrong password on the account routes.
 */
export const confirmByEmail: ConfirmMethod = {
  field: 'email_code',
  offered: async (userId, ctx) => ((await offersEmail(userId, ctx)) ? ['email'] : []),
  async check(req, res, ctx: AppContext, userId, value) {
    const { email_code: code } = validate(schema, { email_code: value })
    if (!(await offersEmail(userId, ctx))) return false
    if (await useConfirmCode(ctx.env.COOKIE_SECRET, userId, req.sessionId!, code)) return true
    markWrongConfirmation(res, 'email')
    throw fieldError('email_code', 'passwordless.codeInvalid')
  },
  routes: (router, ctx) => router.post('/confirm/email', requestConfirmCode(ctx)),
}
