import type { RequestHandler } from 'express'
import { z } from 'zod'
import type { AppConfig } from '../../context.js'
import { fieldError } from '../../http/errors.js'
import { currentPasswordField } from '../../http/schemas.js'
import { validate } from '../../http/validate.js'
import { User } from '../../models/index.js'
import { confirmPassword } from '../../services/confirm-password.js'
import { clearAuthCookies } from '../../services/cookies.js'
import { revokeSessions } from '../../services/sessions.js'
import { roleId } from '../../services/users.js'

export const deleteAccountSchema = z.object({ password: currentPasswordField })

/**
 * The account goes; its refresh tokens and sessions keep their rows (userId null, revoked), so
 * a stolen token still meets reuse detection rather than an unknown jti. The last admin stays:
 * without one nobody could manage users.
 */
export function deleteAccount(config: AppConfig): RequestHandler {
  return async (req, res) => {
    const { password } = validate(deleteAccountSchema, req.body)
    const user = await confirmPassword(res, req.auth!.id, password)
    const adminRole = await roleId('admin')
    if (user.roleId === adminRole && (await User.count({ where: { roleId: adminRole } })) <= 1) {
      throw fieldError('password', 'You are the only admin: make another user an admin before deleting your account.')
    }
    await revokeSessions(config, user.id)
    await user.destroy()
    config.authCache.userChanged(user.id)
    await req.session.reset()
    clearAuthCookies(res, config)
    res.status(204).end()
  }
}
