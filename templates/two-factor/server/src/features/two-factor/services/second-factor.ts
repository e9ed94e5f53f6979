import type { Request, Response } from 'express'
import { type AppContext, envOf, decrypt, events, fieldError, type HttpError, recordCredentialEvent, throttled, type User } from '../../../kernel/index.js'
import { config } from '../config.js'
import { INVALID_CODE, USED_CODE } from '../controllers/fields.js'
import { twoFactorEvents } from '../events.js'
import { lockedUntil, reachesLockout, SECOND_FACTOR_FAILURE } from './lockout.js'
import { useRecoveryCode } from './recovery-codes.js'
import { acceptStep, stepOfCode } from './totp.js'

// A second factor is checked the same way wherever it is typed: at a sign-in's challenge and when
// confirming it is you (step-up). Wrong ones count toward the same account-wide lockout.

/** While the account's second step is locked, no code is even looked at, the right one included. */
export async function refuseWhileLocked(res: Response, userId: number): Promise<void> {
  const locked = await lockedUntil(userId)
  if (locked) throw throttled(res, locked.getTime(), 'twoFactor.locked')
}

/** A code from the authenticator: null when right (and now used), else the error to answer. */
export async function checkCode(ctx: AppContext, user: User, code: string, field = 'code'): Promise<HttpError | null> {
  const secret = user.twoFactorSecret ? decrypt(user.twoFactorSecret, envOf(config, ctx.env).ENCRYPTION_KEY, 'two-factor-secret') : null
  if (user.twoFactorSecret && !secret) {
    ctx.logger.error({ userId: user.id }, 'two-factor secret does not decrypt: was ENCRYPTION_KEY changed? Recovery codes still work.')
  }
  const step = secret ? stepOfCode(secret, code) : null
  if (step === null) return fieldError(field, INVALID_CODE)
  return (await acceptStep(user.id, step)) ? null : fieldError(field, USED_CODE)
}

/** One recovery code: null when right (and now spent), else the error to answer. */
export async function checkRecoveryCode(user: User, code: string, field = 'recovery_code'): Promise<HttpError | null> {
  return (await useRecoveryCode(user.id, code)) ? null : fieldError(field, 'twoFactor.recoveryUsed')
}

/** A wrong second factor, for the activity page and the account-wide lockout (which it may reach). */
export async function countWrongSecondFactor(ctx: AppContext, req: Request, userId: number): Promise<void> {
  await recordCredentialEvent(ctx, events.signInFailed, userId, { req, meta: SECOND_FACTOR_FAILURE })
  if (await reachesLockout(userId)) await recordCredentialEvent(ctx, twoFactorEvents.lockedOut, userId, { req })
}
