import type { RequestHandler } from 'express'
import { z } from 'zod'
import type { AppContext } from '../../context.js'
import { currentPasswordField } from '../../http/schemas.js'
import { validate } from '../../http/validate.js'
import { recordCredentialEvent } from '../../security/credential-events.js'
import { events } from '../../security/events.js'
import { signedInUser } from '../../services/users.js'

export const revokeOtherSessionsSchema = z.object({ password: currentPasswordField.optional() })

/** "Log out other browser sessions" (Jetstream): every session but this one, after the password. */
export function revokeOtherSessions(ctx: AppContext): RequestHandler {
  return async (req, res) => {
    validate(revokeOtherSessionsSchema, req.body)
    const user = await signedInUser(req)
    await recordCredentialEvent(ctx, events.sessionsRevoked, user.id, { req, revoke: { except: req.sessionId }, meta: { scope: 'others' } })
    res.status(204).end()
  }
}
