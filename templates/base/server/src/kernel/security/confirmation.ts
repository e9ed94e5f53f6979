import type { Response } from 'express'
import { Op, type Transaction } from 'sequelize'
import type { AppContext } from '../context.js'
import { fieldError, HttpError, unauthenticated } from '../http/errors.js'
import { Session, User } from '../models/index.js'
import { checkPassword } from '../auth/passwords.js'

// Step-up ("sudo mode"): sensitive actions need the signed-in person to have confirmed it is
// them within CONFIRM_TTL, so that a borrowed laptop or a stolen session cookie is not enough.
// A confirmation lives on its session row: it ends with the session, is never carried to a new
// family, and every revoking event clears it (kernel/security/credential-events.ts).

type Ttl = Pick<AppContext, 'env'>

/**
 * Until when a confirmation (or a sign-in, which confirms its new session) made now lasts, in
 * whole seconds: what MySQL's DATETIME keeps, so the answer and the stored time are the same.
 */
export const confirmationEnd = (ctx: Ttl): Date => new Date(Math.floor(Date.now() / 1000 + ctx.env.CONFIRM_TTL_SECONDS) * 1000)

const CONFIRM_MESSAGE = 'account.confirm'

/** A guarded route without a live confirmation; the client's "Confirm it's you" dialog opens on `errors.confirm`. */
export const confirmationRequired = () => new HttpError(403, CONFIRM_MESSAGE, { confirm: [CONFIRM_MESSAGE] })

/** Confirms the user's live session for CONFIRM_TTL; null when that session is gone (nothing to confirm). */
export async function confirmSession(ctx: Ttl, userId: number, sessionId: string): Promise<Date | null> {
  const until = confirmationEnd(ctx)
  const [count] = await Session.update(
    { confirmedUntil: until },
    { where: { id: sessionId, userId, revokedAt: null, expiresAt: { [Op.gt]: new Date() } } },
  )
  return count > 0 ? until : null
}

/** Confirms the asking session and answers `{confirmed_until}`; one revoked meanwhile has nothing left to confirm (401). */
export async function answerConfirmed(res: Response, ctx: Ttl, userId: number, sessionId: string): Promise<void> {
  const until = await confirmSession(ctx, userId, sessionId)
  if (!until) throw unauthenticated()
  res.json({ confirmed_until: until.toISOString() })
}

/**
 * Marks the answer as a wrong confirmation by `method` (`password`, `totp`, `passkey`): the
 * account routes' limiters count it, per session and per user (kernel/http/rate-limits.ts), and
 * the account router records it as the user's `confirmation_failed` (wrong-confirmations.ts).
 */
export function markWrongConfirmation(res: Response, method: string): void {
  res.locals.wrongConfirmation = method
}

/**
 * True for the account's password; a wrong one is a 422 on `field`, marked as a wrong
 * confirmation. An account without a password has nothing to check: false, and the confirmation decides.
 */
export async function passwordConfirms(res: Response, userId: number, password: string, field = 'password'): Promise<boolean> {
  const user = await User.findByPk(userId, { attributes: ['id', 'password'] })
  if (!user || user.password === null) return false
  if (!(await checkPassword(password, user.password))) {
    markWrongConfirmation(res, 'password')
    throw fieldError(field, 'account.wrongPassword')
  }
  return true
}

/** Until when the session is confirmed, or null. Read from the database: a revocation on another instance counts at once. */
export async function confirmedUntil(userId: number, sessionId: string | undefined, transaction?: Transaction): Promise<Date | null> {
  if (!sessionId) return null
  const session = await Session.findOne({ where: { id: sessionId, userId, revokedAt: null }, attributes: ['confirmedUntil'], transaction })
  const until = session?.confirmedUntil ? new Date(session.confirmedUntil) : null
  return until && until.getTime() > Date.now() ? until : null
}

/** Part of every revoking event: no session of these users stays confirmed, the asking one included. */
export async function clearConfirmations(userIds: number[], transaction?: Transaction): Promise<void> {
  await Session.update({ confirmedUntil: null }, { where: { userId: userIds, confirmedUntil: { [Op.ne]: null } }, transaction })
}

/** The feature layers' ways to confirm, in layer order. */
export const layerConfirmMethods = (features: AppContext['features']) => features.flatMap((feature) => feature.confirmMethods ?? [])

/** The ways this account can confirm (`password`, then the layers': `totp`, `passkey`, `provider:<name>`). */
export async function confirmMethods(ctx: AppContext, userId: number): Promise<string[]> {
  const user = await User.findByPk(userId, { attributes: ['id', 'password'] })
  if (!user) return []
  const offered = await Promise.all(layerConfirmMethods(ctx.features).map((method) => method.offered(userId, ctx)))
  return [...(user.password !== null ? ['password'] : []), ...offered.flat()]
}
