import type { RequestHandler } from 'express'
import { z } from 'zod'
import { confirmEmailChange, events, recordCredentialEvent, serializeUser, tokenField, validate, type AppContext } from '../../../kernel/index.js'

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
