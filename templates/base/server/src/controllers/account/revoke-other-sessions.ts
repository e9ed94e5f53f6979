import type { RequestHandler } from 'express'
import { z } from 'zod'
import type { AppContext } from '../../context.js'
import { currentPasswordField } from '../../http/schemas.js'
import { validate } from '../../http/validate.js'
import { recordCredentialEvent } from '../../security/credential-events.js'
import { events } from '../../security/events.js'
import { confirmPassword } from '../../services/confirm-password.js'

export const revokeOtherSessionsSchema = z.object({ password: currentPasswordField })

/** "Log out other browser sessions" (Jetstream): every session but this one, after the password. */
export function revokeOtherSessions(ctx: AppContext): RequestHandler {
  return async (req, res) => {
    const { password } = validate(revokeOtherSessionsSchema, req.body)
    const user = await confirmPassword(req, res, password)
    await recordCredentialEvent(ctx, events.sessionsRevoked, user.id, { req, revoke: { except: req.sessionId }, meta: { scope: 'others' } })
    res.status(204).end()
  }
}
