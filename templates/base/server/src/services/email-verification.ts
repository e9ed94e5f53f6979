import { Op, UniqueConstraintError } from 'sequelize'
import type { AuthConfig } from '../config/auth.js'
import type { Env } from '../config/env.js'
import { security } from '../config/security.js'
import type { Mailer } from '../mail/mailer.js'
import { chooseLinkMessage, linkWithToken, verifyEmailMessage } from '../mail/messages.js'
import { EmailVerificationToken, type User } from '../models/index.js'
import type { AuthCache } from './auth-cache.js'
import { hashToken, newOneTimeToken } from './one-time-tokens.js'
import { checkPassword } from './passwords.js'
import { createUser, findUserByEmail } from './users.js'

/** What one registration asked for: its name and bcrypt hash (never the password). */
export interface Registration {
  name: string
  passwordHash: string
}

interface Deps {
  env: Env
  auth: Pick<AuthConfig, 'requireEmailVerification'>
  mailer: Mailer
  authCache: Pick<AuthCache, 'userChanged'>
}

/**
 * The registrations of an address still pending (CONTRACT §2 "HTTP API", verification on):
 * each valid registration leaves a row with its name and hash for 24 h, whether or not its link
 * still works. The rules that keep every mailbox free of a link setting someone else's password:
 * - the address's only pending registration, with no account, gets one link that completes it
 *   (its name and password);
 * - any other registration (a second one, or one for an address with an account) voids every
 *   earlier link and mails a link that asks for a new password on the page (`&choose=1`);
 * - a login whose password matches a pending registration answers 403 whatever the address's
 *   state (`matchesPendingRegistration`), so register-then-login tells nothing either.
 */
const pendingWhere = (userId: number) => ({ userId, password: { [Op.ne]: null }, expiresAt: { [Op.gt]: new Date() } })

/** The job's work for `register`, done in the job so the request does the same work for every address. */
export async function registerAddress(deps: Deps, email: string, registration: Registration): Promise<void> {
  let user = await findUserByEmail(email)
  let created = false
  if (!user) {
    user = await createUser({ name: registration.name, email, passwordHash: registration.passwordHash, role: 'user', verified: false })
      .then((fresh) => {
        created = true
        return fresh
      })
      .catch((error: unknown) => {
        // A concurrent registration of the same address won the insert: this one is the second.
        if (error instanceof UniqueConstraintError) return findUserByEmail(email)
        throw error
      })
    if (!user) return
    deps.authCache.userChanged(user.id)
  }
  const pending = created ? 0 : await EmailVerificationToken.count({ where: pendingWhere(user.id) })
  // The only pending registration of an address without an account gets its own link; any
  // other one a link that asks for a new password.
  await mailLink(deps, user, { registration, choose: user.emailVerifiedAt !== null || pending > 0 })
}

/**
 * "Send the link again". With verification on: the one link of an address with one pending
 * registration (a fresh token for it), else a choose-a-password link; unknown addresses get
 * nothing. With verification off, an unverified account gets a plain link: its password is set.
 */
export async function resendVerificationLink(deps: Deps, email: string): Promise<void> {
  const user = await findUserByEmail(email)
  if (!user) return
  if (!deps.auth.requireEmailVerification) {
    if (!user.emailVerifiedAt) await mailLink(deps, user, { registration: null, choose: false })
    return
  }
  const pending = await EmailVerificationToken.findAll({ where: pendingWhere(user.id), order: [['id', 'DESC']] })
  const only = pending.length === 1 && !pending[0]!.choose && pending[0]!.voidedAt === null ? pending[0]! : undefined
  if (!user.emailVerifiedAt && only) {
    const token = newOneTimeToken()
    await only.update({ tokenHash: hashToken(token) })
    await sendLink(deps, user, token, only.name ?? user.name, false)
    return
  }
  const latest = pending[0]
  await mailLink(deps, user, { registration: null, name: latest?.name ?? user.name, choose: true })
}

/** A new link for the address; every earlier one stops working (their registrations stay pending). */
async function mailLink(deps: Deps, user: User, link: { registration: Registration | null; name?: string; choose: boolean }): Promise<void> {
  await EmailVerificationToken.update({ voidedAt: new Date() }, { where: { userId: user.id, voidedAt: null } })
  const token = newOneTimeToken()
  const name = link.registration?.name ?? link.name ?? null
  await EmailVerificationToken.create({
    userId: user.id,
    tokenHash: hashToken(token),
    expiresAt: new Date(Date.now() + security.emailVerificationExpirySeconds * 1000),
    name,
    password: link.registration?.passwordHash ?? null,
    choose: link.choose,
  })
  await sendLink(deps, user, token, name ?? user.name, link.choose)
}

async function sendLink(deps: Deps, user: User, token: string, greeting: string, choose: boolean): Promise<void> {
  const url = linkWithToken(deps.env.BASE_URL, 'verify-email', token, user.email)
  const hours = security.emailVerificationExpirySeconds / 3600
  if (!choose) return deps.mailer.send(verifyEmailMessage(user.email, greeting, url, hours))
  await deps.mailer.send(chooseLinkMessage(user.email, user.emailVerifiedAt ? user.name : greeting, `${url}&choose=1`, hours, user.emailVerifiedAt !== null))
}

/** A live link of this user, or null: unknown, used, voided, expired and someone else's alike. */
export async function openVerificationLink(userId: number | undefined, token: string): Promise<EmailVerificationToken | null> {
  // An unknown e-mail still runs the query, so it costs the same as a wrong token.
  const row = await EmailVerificationToken.findOne({
    where: { userId: userId ?? -1, tokenHash: hashToken(token), voidedAt: null, expiresAt: { [Op.gt]: new Date() } },
  })
  return userId === undefined ? null : row
}

/**
 * Uses a link: of two concurrent uses one deletes the row and wins; every other link of the
 * address stops working. The row goes, so its registration no longer counts as pending (its
 * password may now be the account's).
 */
export async function useVerificationLink(link: EmailVerificationToken): Promise<boolean> {
  if ((await EmailVerificationToken.destroy({ where: { id: link.id, voidedAt: null } })) !== 1) return false
  await EmailVerificationToken.update({ voidedAt: new Date() }, { where: { userId: link.userId, voidedAt: null } })
  return true
}

/** Whether `password` is that of a pending registration of the user's address (login's 403 rule). */
export async function matchesPendingRegistration(userId: number, password: string): Promise<boolean> {
  const rows = await EmailVerificationToken.findAll({ attributes: ['password'], where: pendingWhere(userId) })
  for (const row of rows) if (await checkPassword(password, row.password!)) return true
  return false
}
