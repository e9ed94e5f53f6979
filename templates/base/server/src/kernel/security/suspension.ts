import { Transaction, type Sequelize } from 'sequelize'
import { revokeSessionRows } from '../auth/sessions.js'
import { HttpError } from '../http/errors.js'
import type { Locale } from '../i18n/locales.js'
import { msg } from '../i18n/translate.js'
import { User } from '../models/index.js'

/** A user's suspension as a row holds it (users' columns, migration 0020-add-user-suspension). */
export interface SuspensionColumns {
  suspendedAt: Date | string | null
  suspendedUntil: Date | string | null
  suspensionReason: string | null
}

/** What the admins' API shows of a suspension beside the user: all null when none is in force. */
export interface SuspensionJson {
  suspendedAt: string | null
  suspendedUntil: string | null
  suspensionReason: string | null
}

const NONE: SuspensionJson = Object.freeze({ suspendedAt: null, suspendedUntil: null, suspensionReason: null })

// SQLite hands dates back as text, MySQL and PostgreSQL as Date objects.
const dateOf = (value: Date | string) => (value instanceof Date ? value : new Date(value))

/**
 * Whether a suspension is in force at `now`. One past its end is over by itself: nothing needs
 * to run at that moment, every reader asks this.
 */
export function inForce(row: SuspensionColumns, now = Date.now()): boolean {
  if (row.suspendedAt === null) return false
  return row.suspendedUntil === null || dateOf(row.suspendedUntil).getTime() > now
}

export function suspensionJsonOf(row: SuspensionColumns, now = Date.now()): SuspensionJson {
  if (!inForce(row, now)) return NONE
  return {
    suspendedAt: dateOf(row.suspendedAt!).toISOString(),
    suspendedUntil: row.suspendedUntil === null ? null : dateOf(row.suspendedUntil).toISOString(),
    suspensionReason: row.suspensionReason,
  }
}

/** The columns a raw query selects from `users u` for `suspensionJsonOf`. */
export const SUSPENSION_COLUMNS = 'u."suspendedAt", u."suspendedUntil", u."suspensionReason"'

/**
 * The SQL test of a suspension in force, for a raw query's WHERE (columns unqualified): the
 * moment is written in as the dialect's own date literal, since SQLite compares its dates as text
 * and a bound Date would not be written that way.
 */
export const inForceSql = (sequelize: Sequelize, now = new Date()): string =>
  `("suspendedAt" IS NOT NULL AND ("suspendedUntil" IS NULL OR "suspendedUntil" > ${sequelize.escape(now)}))`

/**
 * Refuses a sign-in (any way in: a password, a second factor, a passkey, a provider) while the
 * account is suspended: 403 on `email`, as an unverified address is, naming when it ends. Asked
 * only after the first factor proved the person, so it tells a stranger nothing.
 */
export async function refuseSuspended(userId: number, locale: Locale): Promise<void> {
  const row = await User.findByPk(userId, { attributes: ['suspendedAt', 'suspendedUntil', 'suspensionReason'] })
  if (row && inForce(row)) throw suspendedError(row, locale)
}

/**
 * Asked again once a sign-in has written its session: a suspension committed since the first
 * read would not have ended a session it could not see. This read waits for a credential change
 * under way on the account (one locks the user's row first: kernel/security/credential-events.ts),
 * so either that change ended the new session with the others, or this read sees it. Then the
 * session, whose tokens were never handed out, ends too.
 */
export async function refuseSuspendedSession(userId: number, sessionId: string, locale: Locale): Promise<void> {
  const row = await User.findByPk(userId, { attributes: ['suspendedAt', 'suspendedUntil', 'suspensionReason'], lock: Transaction.LOCK.SHARE })
  if (!row || !inForce(row)) return
  await revokeSessionRows([userId], { only: sessionId })
  throw suspendedError(row, locale)
}

function suspendedError(row: SuspensionColumns, locale: Locale): HttpError {
  const message = row.suspendedUntil === null ? 'auth.suspended' : msg('auth.suspendedUntil', { until: formatUntil(dateOf(row.suspendedUntil), locale) })
  return new HttpError(403, message, { email: [message] })
}

/** The end of a suspension as a person reads it, in UTC so every reader means the same moment. */
export const formatUntil = (until: Date, locale: Locale): string =>
  `${new Intl.DateTimeFormat(locale, { dateStyle: 'long', timeStyle: 'short', timeZone: 'UTC' }).format(until)} UTC`
