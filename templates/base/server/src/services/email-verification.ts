import { Op, QueryTypes, UniqueConstraintError, type Transaction } from 'sequelize'
import type { AuthConfig } from '../config/auth.js'
import type { Env } from '../config/env.js'
import { security } from '../config/security.js'
import { sql } from '../db/sql.js'
import type { UserLifecycle } from '../kernel/feature.js'
import type { Mailer } from '../mail/mailer.js'
import { chooseLinkMessage, linkWithToken, verifyEmailMessage } from '../mail/messages.js'
import { EmailVerificationToken, User } from '../models/index.js'
import { linksVoidedSince } from '../security/voided-since.js'
import type { AuthCache } from './auth-cache.js'
import { hashToken, newOneTimeToken } from './one-time-tokens.js'
import { checkPassword } from './passwords.js'
import type { WebhookHub } from '../webhooks/hub.js'
import { createAccount } from './user-updates.js'
import { findUserByEmail } from './users.js'
import { mailLocale, type Locale } from '../i18n/locales.js'
import { translator } from '../i18n/translate.js'

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
  features: UserLifecycle
  webhooks: Pick<WebhookHub, 'emit'>
}

/**
 * The registrations of an address still pending (verification on; the README's "Security" says the rules):
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
export async function registerAddress(deps: Deps, email: string, registration: Registration, locale?: Locale): Promise<void> {
  const user = (await findUserByEmail(email)) ?? (await createPendingUser(deps, email, registration))
  if (!user) return
  // Registrations of one address are decided one at a time (jobs run in parallel, on several
  // instances): two at the same moment must not both find themselves the only one.
  const [locked, link] = await lockedForLinks(user, async (locked, transaction) => {
    const pending = await EmailVerificationToken.count({ where: pendingWhere(locked.id), transaction })
    // The only pending registration of an address without an account gets its own link; any
    // other one a link that asks for a new password.
    return issueLink(locked, { registration, choose: locked.emailVerifiedAt !== null || pending > 0 }, transaction)
  })
  await sendLink(deps, locked, link, locale)
}

/**
 * Runs `work` in a transaction holding the user's row, the lock every link decision of the
 * address takes; `work` gets the row as read under the lock (verified since, perhaps).
 */
function lockedForLinks<T>(user: User, work: (locked: User, transaction: Transaction) => Promise<T>): Promise<[User, T]> {
  return User.sequelize!.transaction(async (transaction) => {
    const locked = (await User.findByPk(user.id, { lock: transaction.LOCK.UPDATE, transaction })) ?? user
    return [locked, await work(locked, transaction)]
  })
}

/** The unverified user a first registration makes; null when a concurrent one won the insert (and its job mails). */
async function createPendingUser(deps: Deps, email: string, registration: Registration): Promise<User | null> {
  try {
    return await createAccount(deps, { name: registration.name, email, passwordHash: registration.passwordHash, role: 'user', verified: false })
  } catch (error) {
    if (error instanceof UniqueConstraintError) return findUserByEmail(email)
    throw error
  }
}

/**
 * "Send the link again". With verification on: the one link of an address with one pending
 * registration (a fresh token for it), else a choose-a-password link; unknown addresses get
 * nothing. With verification off, an unverified account gets a plain link: its password is set.
 */
export async function resendVerificationLink(deps: Deps, email: string, eventsUpTo?: number, locale?: Locale): Promise<void> {
  const user = await findUserByEmail(email)
  if (!user) return
  // A revoking event since the request voided every link it could have had.
  if (eventsUpTo !== undefined && (await linksVoidedSince(user.id, eventsUpTo))) return
  if (!deps.auth.requireEmailVerification) {
    if (!user.emailVerifiedAt) await sendLink(deps, user, await issueLink(user, { registration: null, choose: false }), locale)
    return
  }
  const [locked, link] = await lockedForLinks(user, async (locked, transaction) => {
    const pending = await EmailVerificationToken.findAll({ where: pendingWhere(locked.id), order: [['id', 'DESC']], transaction })
    const only = pending.length === 1 && !pending[0]!.choose && pending[0]!.voidedAt === null ? pending[0]! : undefined
    if (!locked.emailVerifiedAt && only) {
      const token = newOneTimeToken()
      await only.update({ tokenHash: hashToken(token), email: locked.email }, { transaction })
      return { token, choose: false }
    }
    // No registration caused this link: a verified account keeps its own name unless the page
    // sends another; an unverified one gets its newest registration's.
    const name = locked.emailVerifiedAt !== null ? locked.name : (pending[0]?.name ?? locked.name)
    return issueLink(locked, { registration: null, name, choose: true }, transaction)
  })
  await sendLink(deps, locked, link, locale)
}

interface IssuedLink {
  token: string
  choose: boolean
}

/** A new link for the address; every earlier one stops working (their registrations stay pending). */
async function issueLink(user: User, link: { registration: Registration | null; name?: string; choose: boolean }, transaction?: Transaction): Promise<IssuedLink> {
  await EmailVerificationToken.update({ voidedAt: new Date() }, { where: { userId: user.id, voidedAt: null }, transaction })
  const token = newOneTimeToken()
  const name = link.registration?.name ?? link.name ?? null
  await EmailVerificationToken.create(
    {
      userId: user.id,
      email: user.email,
      tokenHash: hashToken(token),
      expiresAt: new Date(Date.now() + security.emailVerificationExpirySeconds * 1000),
      name,
      password: link.registration?.passwordHash ?? null,
      choose: link.choose,
    },
    { transaction },
  )
  return { token, choose: link.choose }
}

/**
 * A choose-a-password link goes out because more than one party claimed the address (a second
 * registration, or one of an account's address): a name is shown only to its own account. A
 * verified account is greeted by its own name; an address not yet verified by no one's, since any
 * of its registrations (a stranger's among them) chose the names it holds.
 */
/** In the account's language, else the one of the request that asked for the link. */
async function sendLink(deps: Deps, user: User, link: IssuedLink, locale: Locale | undefined): Promise<void> {
  const t = translator(mailLocale(user.locale, locale))
  const url = linkWithToken(deps.env.BASE_URL, 'verify-email', link.token, user.email)
  const hours = security.emailVerificationExpirySeconds / 3600
  if (!link.choose) return deps.mailer.send(verifyEmailMessage(t, user.email, url, hours))
  const accountExists = user.emailVerifiedAt !== null
  await deps.mailer.send(chooseLinkMessage(t, user.email, accountExists ? user.name : null, `${url}&choose=1`, hours, accountExists))
}

/**
 * A live link of this user mailed to the address the user still has, or null: unknown, used,
 * voided, expired, someone else's and mailed to an address the account has left alike.
 */
export async function openVerificationLink(user: Pick<User, 'id' | 'email'> | null, token: string): Promise<EmailVerificationToken | null> {
  // An unknown e-mail still runs the query, so it costs the same as a wrong token.
  const row = await EmailVerificationToken.findOne({
    where: { userId: user?.id ?? -1, email: user?.email ?? '', tokenHash: hashToken(token), voidedAt: null, expiresAt: { [Op.gt]: new Date() } },
  })
  return user ? row : null
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

/**
 * A reset link proved the mailbox, so an unverified account becomes its owner's: the address is
 * verified and every registration of it is deleted, not voided, so none answers login's 403 rule
 * for her password's account or can be completed or re-sent later (a stranger who registered the
 * address first otherwise kept a claim on it). Where verification is required, its name came from
 * a registration nobody confirmed, perhaps that stranger's, and would greet the owner in every
 * mail: the address's local part stands in until she sets one. Where it is not, an unverified
 * account is one its owner signed up and uses, and keeps its name.
 */
export async function setPasswordByReset(user: User, passwordHash: string, transaction: Transaction, verificationRequired: boolean): Promise<void> {
  if (user.emailVerifiedAt !== null) {
    await user.update({ password: passwordHash }, { transaction })
    return
  }
  await EmailVerificationToken.destroy({ where: { userId: user.id }, transaction })
  await user.update({ password: passwordHash, emailVerifiedAt: new Date(), ...(verificationRequired ? { name: localPartOf(user.email) } : {}) }, { transaction })
}

const localPartOf = (email: string) => email.slice(0, email.lastIndexOf('@')).slice(0, 255) || email.slice(0, 255)

/**
 * An unverified account whose registrations all expired (or ended) was never anyone's: it only
 * holds the address, so a provider sign-up would find it taken and a new registration would be
 * greeted as a second one. Accounts that ever signed in are kept (an app that required no
 * verification when they registered).
 */
const ABANDONED = `"emailVerifiedAt" IS NULL AND "createdAt" < :cutoff
  AND NOT EXISTS (SELECT 1 FROM email_verification_tokens t WHERE t."userId" = users.id AND t.password IS NOT NULL AND t."expiresAt" > :now)
  AND NOT EXISTS (SELECT 1 FROM sessions s WHERE s."userId" = users.id)`
const findAbandoned = sql(`SELECT id FROM users WHERE ${ABANDONED} ORDER BY id LIMIT 500`)
const deleteAbandoned = sql(`DELETE FROM users WHERE id IN (:ids) AND ${ABANDONED}`)

/**
 * Part of the hourly pruning job, with verification required only (where it is optional an
 * unverified account is a working one): deletes accounts left unverified 24 h after they were
 * made with no pending registration. The conditions are checked again by the DELETE itself, so a
 * registration landing meanwhile keeps its account.
 */
export async function pruneAbandonedAccounts(deps: Pick<Deps, 'authCache' | 'webhooks'>, now = Date.now()): Promise<number> {
  const sequelize = User.sequelize!
  const replacements = { cutoff: new Date(now - security.emailVerificationExpirySeconds * 1000), now: new Date(now) }
  let deleted = 0
  for (;;) {
    const rows = await sequelize.query<{ id: number }>(findAbandoned(sequelize), { replacements, type: QueryTypes.SELECT })
    if (rows.length === 0) return deleted
    const ids = rows.map((row) => Number(row.id))
    await sequelize.transaction(async (transaction) => {
      await sequelize.query(deleteAbandoned(sequelize), { replacements: { ...replacements, ids }, transaction })
      // `user.created` went out for them: so does `user.deleted`, for those the DELETE took.
      const kept = new Set((await User.findAll({ attributes: ['id'], where: { id: ids }, transaction })).map((user) => user.id))
      const gone = ids.filter((id) => !kept.has(id)).map((id) => ({ timestamp: new Date(now), data: { user: { id } } }))
      await deps.webhooks.emit('user.deleted', gone, transaction)
    })
    for (const id of ids) deps.authCache.userChanged(id)
    deleted += ids.length
    if (rows.length < 500) return deleted
  }
}
