import type { RequestHandler } from 'express'
import { z } from 'zod'
import type { AppContext } from '../context.js'
import { fieldError } from '../http/errors.js'
import { currentPasswordField } from '../http/schemas.js'
import { validate } from '../http/validate.js'
import { answerConfirmed, layerConfirmMethods, passwordConfirms } from '../security/confirmation.js'

export const confirmPasswordSchema = z.object({ password: currentPasswordField })

/**
 * `POST /api/account/confirm`: `{password}`, or a field a layer checks (`{code}`), confirms this
 * session for CONFIRM_TTL. Wrong ones count toward the 429 of the password-checked account routes.
 */
export function confirmIdentity(ctx: AppContext): RequestHandler {
  const methods = layerConfirmMethods(ctx.features).filter((method) => method.field && method.check)
  return async (req, res) => {
    const body = (req.body ?? {}) as Record<string, unknown>
    const userId = req.auth!.id
    const method = methods.find((candidate) => body[candidate.field!] !== undefined)
    if (body.password !== undefined || !method) {
      const { password } = validate(confirmPasswordSchema, body)
      if (!(await passwordConfirms(res, userId, password))) throw fieldError('password', 'account.noPassword')
    } else if (!(await method.check!(req, res, ctx, userId, body[method.field!]))) {
      throw fieldError(method.field!, 'account.notConfirmed')
    }
    await answerConfirmed(res, ctx, userId, req.sessionId!)
  }
}
