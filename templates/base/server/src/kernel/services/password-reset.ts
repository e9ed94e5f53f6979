import { security } from '../config/security.js'
import { PasswordResetToken } from '../models/index.js'
import { consumeOneTimeToken, issueOneTimeToken } from './one-time-tokens.js'

/** The account a reset link is for, and the address it goes to. */
type Addressee = { id: number; email: string }

/** A fresh reset link's token for the account's current address; its older links stop working. */
export const issueResetLink = (user: Addressee): Promise<string> =>
  issueOneTimeToken(PasswordResetToken, user.id, security.passwordResetExpirySeconds, { fields: { email: user.email } })

/** Uses a reset link, which works only while the address it was mailed to is still the account's. */
export const consumeResetLink = (user: Addressee | null, token: string): Promise<PasswordResetToken | null> =>
  consumeOneTimeToken(PasswordResetToken, user?.id, token, { email: user?.email ?? null })
