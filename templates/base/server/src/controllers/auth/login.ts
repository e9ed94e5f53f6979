import type { RequestHandler } from 'express'
import { z } from 'zod'
import type { AppConfig } from '../../context.js'
import { HttpError, fieldError } from '../../http/errors.js'
import { currentPasswordField, emailField, rememberField } from '../../http/schemas.js'
import { validate } from '../../http/validate.js'
import type { RateLimiters } from '../../middleware/rate-limits.js'
import { checkPassword } from '../../services/passwords.js'
import { signIn } from '../../services/sign-in.js'
import { findSignInUser } from '../../services/users.js'

const schema = z.object({ email: emailField, password: currentPasswordField, remember: rememberField })

/**
 * An unknown e-mail and a wrong password get the same answer after the same bcrypt work. The
 * unverified-address 403 is given only to someone who knows the password.
 */
export function login(config: AppConfig, limiters: RateLimiters): RequestHandler {
  return async (req, res) => {
    const input = validate(schema, req.body)
    const user = await findSignInUser(input.email)
    if (!(await checkPassword(input.password, user?.passwordHash)) || !user) {
      throw fieldError('email', 'These credentials do not match our records.')
    }
    if (config.auth.requireEmailVerification && !user.json.emailVerifiedAt) {
      throw new HttpError(403, 'Your e-mail address is not verified.', {
        email: ['Your e-mail address is not verified. Follow the link we sent you, or ask for a new one.'],
      })
    }
    await limiters.clearLoginFailures(req)
    const accessToken = await signIn(req, res, config, user.identity, input.remember ?? false)
    res.json({ user: user.json, access_token: accessToken })
  }
}
