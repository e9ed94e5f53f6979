import { Op, QueryTypes } from 'sequelize'
import { twoFactor } from '../settings.js'
import { SecurityEvent, sql } from '../../../kernel/index.js'

/** The meta of a wrong second factor's `sign_in_failed` event: what the lockout counts. */
export const SECOND_FACTOR_FAILURE = { factor: 'second_factor' }
const failureMeta = JSON.stringify(SECOND_FACTOR_FAILURE)

const lastOf = sql(`SELECT type, MAX("createdAt") AS at FROM security_events WHERE "userId" = $1 AND type IN ('locked_out', 'password_reset') GROUP BY type`)

/**
 * The account-wide lock of the second step, read from the account's own
 * security events: the database every instance shares, so a lock made on one instance holds on
 * all of them, with or without Redis, and nothing but the events has to be kept in step.
 * Returns when the lock ends, or null when there is none. A password reset after the lock lifts it.
 */
export async function lockedUntil(userId: number, now = Date.now()): Promise<Date | null> {
  const last = await lastEvents(userId)
  if (!last.locked_out || (last.password_reset && last.password_reset >= last.locked_out)) return null
  const until = last.locked_out + twoFactor.lockoutSeconds * 1000
  return until > now ? new Date(until) : null
}

/**
 * After a wrong code: whether it was the one that reaches the limit within the window. Failures
 * count from the latest of the window's start, the last lock and the last password reset.
 */
export async function reachesLockout(userId: number, now = Date.now()): Promise<boolean> {
  const last = await lastEvents(userId)
  const since = Math.max(now - twoFactor.lockoutWindowSeconds * 1000, last.locked_out ?? 0, last.password_reset ?? 0)
  const failures = await SecurityEvent.count({ where: { userId, type: 'sign_in_failed', meta: failureMeta, createdAt: { [Op.gt]: new Date(since) } } })
  return failures >= twoFactor.lockoutFailures
}

async function lastEvents(userId: number): Promise<{ locked_out?: number; password_reset?: number }> {
  const sequelize = SecurityEvent.sequelize!
  const rows = await sequelize.query<{ type: 'locked_out' | 'password_reset'; at: Date | string }>(lastOf(sequelize), { bind: [userId], type: QueryTypes.SELECT })
  return Object.fromEntries(rows.map((row) => [row.type, new Date(row.at).getTime()]))
}
