import type { RequestHandler } from 'express'
import { z } from 'zod'
import type { AppContext } from '../../context.js'
import { fieldError, unauthenticated } from '../../http/errors.js'
import { currentPasswordField } from '../../http/schemas.js'
import { validate } from '../../http/validate.js'
import { passwordConfirms } from '../../middleware/require-confirmed.js'
import { confirmSession } from '../../security/confirmation.js'

const passwordSchema = z.object({ password: currentPasswordField })

/**
 * `POST /api/account/confirm`: `{password}`, or a field a layer checks (`{code}`), confirms this
 * session for CONFIRM_TTL. Wrong ones count toward the 429 of the password-checked account routes.
 */
export function confirmIdentity(ctx: AppContext): RequestHandler {
  const methods = ctx.features.flatMap((feature) => feature.confirmMethods ?? []).filter((method) => method.field && method.check)
  return async (req, res) => {
    const body = (req.body ?? {}) as Record<string, unknown>
    const userId = req.auth!.id
    let confirmed: boolean
    const method = methods.find((candidate) => body[candidate.field!] !== undefined)
    if (body.password !== undefined || !method) {
      const { password } = validate(passwordSchema, body)
      confirmed = await passwordConfirms(res, userId, password)
      if (!confirmed) throw fieldError('password', 'Your account has no password: confirm another way.')
    } else if (!(confirmed = await method.check!(req, res, ctx, userId, body[method.field!]))) {
      throw fieldError(method.field!, 'This could not confirm you.')
    }
    // The session may have been revoked meanwhile: there is nothing left to confirm.
    const until = confirmed ? await confirmSession(ctx, userId, req.sessionId!) : null
    if (!until) throw unauthenticated()
    res.json({ confirmed_until: until.toISOString() })
  }
}
