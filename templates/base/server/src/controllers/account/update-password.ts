import type { RequestHandler } from 'express'
import { z } from 'zod'
import type { AppConfig } from '../../context.js'
import { currentPasswordField, newPasswordField } from '../../http/schemas.js'
import { validate } from '../../http/validate.js'
import { confirmPassword } from '../../services/confirm-password.js'
import { hashPassword } from '../../services/passwords.js'
import { revokeSessions } from '../../services/sessions.js'

export const updatePasswordSchema = z.object({ current_password: currentPasswordField, password: newPasswordField })

/** A new password ends every other session; this one stays signed in. */
export function updatePassword(config: AppConfig): RequestHandler {
  return async (req, res) => {
    const input = validate(updatePasswordSchema, req.body)
    const user = await confirmPassword(res, req.auth!.id, input.current_password, 'current_password')
    await user.update({ password: await hashPassword(input.password) })
    await revokeSessions(config, user.id, { except: req.sessionId })
    res.json({ message: 'Your password has been changed. Your other sessions were signed out.' })
  }
}
