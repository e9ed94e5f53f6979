import type { RequestHandler } from 'express'
import type { AppConfig } from '../../context.js'
import { z } from 'zod'
import { fieldError } from '../../http/errors.js'
import { emailField, tokenField } from '../../http/schemas.js'
import { validate } from '../../http/validate.js'
import { EmailVerificationToken } from '../../models/index.js'
import { consumeOneTimeToken } from '../../services/one-time-tokens.js'
import { findUserByEmail, serializeUser } from '../../services/users.js'

const schema = z.object({ email: emailField, token: tokenField })

export const invalidToken = () => fieldError('token', 'This link is invalid or has expired.')

export function verifyEmail(config: AppConfig): RequestHandler {
  return async (req, res) => {
    const input = validate(schema, req.body)
    const user = await findUserByEmail(input.email)
    if (!(await consumeOneTimeToken(EmailVerificationToken, user?.id, input.token)) || !user) throw invalidToken()
    if (!user.emailVerifiedAt) {
      await user.update({ emailVerifiedAt: new Date() })
      config.authCache.userChanged(user.id)
    }
    res.json({ message: 'Your e-mail address is verified.', user: serializeUser(user) })
  }
}
