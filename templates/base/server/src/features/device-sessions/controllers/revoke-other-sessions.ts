import type { RequestHandler } from 'express'
import { z } from 'zod'
import { currentPasswordField, events, recordCredentialEvent, signedInUser, validate, type AppContext } from '../../../kernel/index.js'

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
