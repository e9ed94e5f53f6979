import type { RequestHandler } from 'express'
import type { AppConfig } from '../../context.js'
import { z } from 'zod'
import { fieldError } from '../../http/errors.js'
import { emailField, tokenField } from '../../http/schemas.js'
import { validate } from '../../http/validate.js'
import { EmailVerificationToken } from '../../models/index.js'
import { recordCredentialEvent } from '../../security/credential-events.js'
import { events } from '../../security/events.js'
import { consumeOneTimeToken } from '../../services/one-time-tokens.js'
import { findUserByEmail, serializeUser } from '../../services/users.js'

export const verifyEmailSchema = z.object({ email: emailField, token: tokenField })

export const invalidToken = () => fieldError('token', 'This link is invalid or has expired.')

/**
 * A link mailed after a registration sets that registration's name and password along with the
 * verified address: whoever registered the address first, the account ends up with the
 * credentials of the registration whose link was used. Using a link voids the others.
 */
export function verifyEmail(config: AppConfig): RequestHandler {
  return async (req, res) => {
    const input = validate(verifyEmailSchema, req.body)
    const user = await findUserByEmail(input.email)
    const link = await consumeOneTimeToken(EmailVerificationToken, user?.id, input.token)
    if (!link || !user) throw invalidToken()
    const registration = link.name != null && link.password != null ? { name: link.name, password: link.password } : {}
    if (!user.emailVerifiedAt || 'password' in registration) {
      const wasVerified = user.emailVerifiedAt !== null
      // A link that sets a password ends whatever sessions the account had; on a verified account it is a reset.
      await recordCredentialEvent(config, wasVerified ? events.passwordReset : events.sessionsRevoked, user.id, {
        req,
        change: (transaction) => user.update({ emailVerifiedAt: user.emailVerifiedAt ?? new Date(), ...registration }, { transaction }),
        revoke: 'all',
        userChanged: true,
        meta: { reason: 'email_verified' },
      })
    }
    res.json({ message: 'Your e-mail address is verified.', user: serializeUser(user) })
  }
}
