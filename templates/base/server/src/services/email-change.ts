import { UniqueConstraintError } from 'sequelize'
import type { Env } from '../config/env.js'
import { security } from '../config/security.js'
import { fieldError } from '../http/errors.js'
import type { Mailer } from '../mail/mailer.js'
import { confirmEmailChangeMessage, emailChangeRequestedMessage, emailTakenMessage } from '../mail/messages.js'
import { EmailChangeToken, User } from '../models/index.js'
import { hashToken, issueOneTimeToken } from './one-time-tokens.js'
import { findUserByEmail, findUserById } from './users.js'

/**
 * The job `user:confirm-email`: the old address is told, and the new one gets a link (24 h, single
 * use, stored hashed; a newer request voids it), or, if it belongs to an account, its owner gets
 * a notice instead. The HTTP answer was the same either way.
 */
export async function mailEmailChange(deps: { env: Env; mailer: Mailer }, userId: number, email: string): Promise<void> {
  const user = await findUserById(userId)
  if (!user || user.email === email) return
  const { BASE_URL } = deps.env
  await deps.mailer.send(emailChangeRequestedMessage(user.email, user.name, email, `${BASE_URL}/settings/password`))
  const owner = await findUserByEmail(email)
  if (owner) {
    await deps.mailer.send(emailTakenMessage(email, owner.name))
    return
  }
  const token = await issueOneTimeToken(EmailChangeToken, user.id, security.emailChangeExpirySeconds, { fields: { email } })
  const url = `${BASE_URL}/confirm-email?${new URLSearchParams({ token }).toString()}`
  await deps.mailer.send(confirmEmailChangeMessage(email, user.name, url, security.emailChangeExpirySeconds / 3600))
}

export const invalidEmailChangeToken = () => fieldError('token', 'This link is invalid or has expired.')

/**
 * Uses a confirmation link: the token row is deleted by the one conditional statement that
 * decides races, the user's other pending changes go with it, and the address is set and counts
 * as verified (the link proved it). An address taken since the request is a 422 on `email`.
 */
export async function confirmEmailChange(token: string): Promise<{ user: User; previousEmail: string }> {
  const row = await EmailChangeToken.findOne({ where: { tokenHash: hashToken(token) } })
  if (!row || row.expiresAt.getTime() <= Date.now()) throw invalidEmailChangeToken()
  if ((await EmailChangeToken.destroy({ where: { id: row.id } })) !== 1) throw invalidEmailChangeToken()
  await EmailChangeToken.destroy({ where: { userId: row.userId } })
  const user = await findUserById(row.userId)
  if (!user) throw invalidEmailChangeToken()
  const taken = () => fieldError('email', 'This e-mail address has been taken meanwhile.')
  if (await User.findOne({ where: { email: row.email } })) throw taken()
  const previousEmail = user.email
  await user.update({ email: row.email, emailVerifiedAt: new Date() }).catch((error: unknown) => {
    throw error instanceof UniqueConstraintError ? taken() : error
  })
  return { user, previousEmail }
}
