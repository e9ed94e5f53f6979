import type { RequestHandler } from 'express'
import { z } from 'zod'
import type { AppConfig } from '../../context.js'
import { tokenField } from '../../http/schemas.js'
import { validate } from '../../http/validate.js'
import { confirmEmailChange } from '../../services/email-change.js'
import { revokeSessions } from '../../services/sessions.js'
import { serializeUser } from '../../services/users.js'

export const confirmEmailSchema = z.object({ token: tokenField })

/**
 * Works signed out (the link may be opened on another device). Every other session of the user
 * ends; the one confirming stays signed in if it is the user's own.
 */
export function confirmEmail(config: AppConfig): RequestHandler {
  return async (req, res) => {
    const { token } = validate(confirmEmailSchema, req.body)
    const user = await confirmEmailChange(token)
    const current = req.auth?.id === user.id ? req.sessionId : undefined
    await revokeSessions(config, user.id, { except: current })
    config.authCache.userChanged(user.id)
    res.json({ user: serializeUser(user) })
  }
}
