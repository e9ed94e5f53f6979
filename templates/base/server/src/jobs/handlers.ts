import type { AuthConfig } from '../config/auth.js'
import type { Env } from '../config/env.js'
import { security } from '../config/security.js'
import type { Mailer } from '../mail/mailer.js'
import { accountExistsMessage, linkWithToken, resetPasswordMessage, verifyEmailMessage } from '../mail/messages.js'
import { EmailVerificationToken, PasswordResetToken } from '../models/index.js'
import { issueOneTimeToken } from '../services/one-time-tokens.js'
import { findUserByEmail } from '../services/users.js'
import type { JobHandlers } from './types.js'

/**
 * The work behind register, resend-verification and forgot-password. The HTTP handlers answer
 * the same for every address; whether an account exists is only decided here.
 */
export function createJobHandlers(deps: { env: Env; auth: AuthConfig; mailer: Mailer }): JobHandlers {
  const { env, mailer } = deps
  return {
    async 'user:verify-email'({ email, reason }) {
      const user = await findUserByEmail(email)
      if (!user) return
      if (user.emailVerifiedAt) {
        if (reason === 'register') {
          await mailer.send(accountExistsMessage(user.email, user.name, `${env.BASE_URL}/login`, `${env.BASE_URL}/forgot-password`))
        }
        return
      }
      const token = await issueOneTimeToken(EmailVerificationToken, user.id, security.emailVerificationExpirySeconds)
      const url = linkWithToken(env.BASE_URL, 'verify-email', token, user.email)
      await mailer.send(verifyEmailMessage(user.email, user.name, url, security.emailVerificationExpirySeconds / 3600))
    },

    async 'user:reset-password'({ email }) {
      const user = await findUserByEmail(email)
      if (!user) return
      const token = await issueOneTimeToken(PasswordResetToken, user.id, security.passwordResetExpirySeconds)
      const url = linkWithToken(env.BASE_URL, 'reset-password', token, user.email)
      await mailer.send(resetPasswordMessage(user.email, user.name, url, security.passwordResetExpirySeconds / 60))
    },
  }
}
