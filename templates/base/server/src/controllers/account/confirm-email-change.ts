import type { RequestHandler } from 'express'
import { z } from 'zod'
import type { AppContext } from '../../kernel/context.js'
import { tokenField } from '../../kernel/http/schemas.js'
import { validate } from '../../kernel/http/validate.js'
import { recordCredentialEvent } from '../../kernel/security/credential-events.js'
import { events } from '../../kernel/security/events.js'
import { confirmEmailChange } from '../../kernel/services/email-change.js'
import { serializeUser } from '../../kernel/services/users.js'

export const confirmEmailSchema = z.object({ token: tokenField })

/**
 * Works signed out (the link may be opened on another device). Every other session of the user
 * ends and every pending link dies (a reset link mailed to the old address included); the one
 * confirming stays signed in if it is the user's own. The old address is told.
 */
export function confirmEmail(ctx: AppContext): RequestHandler {
  return async (req, res) => {
    const { token } = validate(confirmEmailSchema, req.body)
    const { user, previousEmail } = await confirmEmailChange(token)
    const current = req.auth?.id === user.id ? req.sessionId : undefined
    await recordCredentialEvent(ctx, events.emailChanged, user.id, {
      req,
      sessionId: current,
      revoke: { except: current },
      userChanged: true,
      noticeTo: previousEmail,
    })
    res.json({ user: serializeUser(user) })
  }
}
