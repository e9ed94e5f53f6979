import { randomBytes } from 'node:crypto'
import { Op, UniqueConstraintError, type Transaction } from 'sequelize'
import type { Env } from '../config/env.js'
import { security } from '../config/security.js'
import { fieldError, invalidToken } from '../http/errors.js'
import type { Mailer } from '../mail/mailer.js'
import { confirmEmailChangeMessage, emailChangeRequestedMessage, emailTakenMessage } from '../mail/messages.js'
import { EmailChangeToken, User } from '../models/index.js'
import { hashToken, newOneTimeToken } from './one-time-tokens.js'
import { findUserByEmail, findUserById } from './users.js'
import { mailLocale, type Locale } from '../i18n/locales.js'
import { translator } from '../i18n/translate.js'

/**
 * What a pending change's row holds until its link is mailed: not a SHA-256 hex digest, so no token
 * matches it, and unique like one.
 */
const unsent = () => `unsent:${randomBytes(24).toString('hex')}`

/**
 * The request's part (`POST /api/account/email`, in the transaction of its event): the pending
 * change exists from the moment the request is accepted, so everything that voids pending links
 * (a password change, signing out everywhere, a newer request) voids it too, even while its mail
 * job waits for SMTP. Returns the row's id, all the job gets.
 */
export async function startEmailChange(userId: number, email: string, transaction: Transaction): Promise<number> {
  await EmailChangeToken.destroy({ where: { userId }, transaction })
  const row = await EmailChangeToken.create(
    { userId, email, tokenHash: unsent(), expiresAt: new Date(Date.now() + security.emailChangeExpirySeconds * 1000) },
    { transaction },
  )
  return row.id
}

/**
 * The job `user:confirm-email`: it only delivers, and only while the request's row lives. The old
 * address is told, and the new one gets a link (24 h, single use, stored hashed), or, if it
 * belongs to an account, its owner gets a notice instead. The token is made here and its hash set
 * by a statement that finds the row still there, so neither the outbox nor the database ever holds
 * it; a retry makes a new one (the earlier mail never arrived).
 * Each mail is in its recipient's language, else in the one of the request.
 */
export async function mailEmailChange(deps: { env: Env; mailer: Mailer }, tokenId: number, locale?: Locale): Promise<void> {
  const live = () => ({ id: tokenId, expiresAt: { [Op.gt]: new Date() } })
  const row = await EmailChangeToken.findOne({ where: live() })
  const user = row ? await findUserById(row.userId) : null
  if (!row || !user || user.email === row.email) return
  const { BASE_URL } = deps.env
  const t = translator(mailLocale(user.locale, locale))
  await deps.mailer.send(emailChangeRequestedMessage(t, user.email, user.name, row.email, `${BASE_URL}/settings/password`))
  const owner = await findUserByEmail(row.email)
  if (owner) {
    await EmailChangeToken.destroy({ where: { id: row.id } })
    await deps.mailer.send(emailTakenMessage(translator(mailLocale(owner.locale, locale)), row.email, owner.name))
    return
  }
  const token = newOneTimeToken()
  const [minted] = await EmailChangeToken.update({ tokenHash: hashToken(token) }, { where: live() })
  if (minted !== 1) return
  const url = `${BASE_URL}/confirm-email?${new URLSearchParams({ token }).toString()}`
  await deps.mailer.send(confirmEmailChangeMessage(t, row.email, url, security.emailChangeExpirySeconds / 3600))
}

/**
 * Uses a confirmation link: the token row is deleted by the one conditional statement that
 * decides races, the user's other pending changes go with it, and the address is set and counts
 * as verified (the link proved it). An address taken since the request is a 422 on `email`.
 */
export async function confirmEmailChange(token: string): Promise<{ user: User; previousEmail: string }> {
  const row = await EmailChangeToken.findOne({ where: { tokenHash: hashToken(token) } })
  if (!row || row.expiresAt.getTime() <= Date.now()) throw invalidToken()
  if ((await EmailChangeToken.destroy({ where: { id: row.id } })) !== 1) throw invalidToken()
  await EmailChangeToken.destroy({ where: { userId: row.userId } })
  const user = await findUserById(row.userId)
  if (!user) throw invalidToken()
  const taken = () => fieldError('email', 'account.emailTakenMeanwhile')
  if (await User.findOne({ where: { email: row.email } })) throw taken()
  const previousEmail = user.email
  await user.update({ email: row.email, emailVerifiedAt: new Date() }).catch((error: unknown) => {
    throw error instanceof UniqueConstraintError ? taken() : error
  })
  return { user, previousEmail }
}
