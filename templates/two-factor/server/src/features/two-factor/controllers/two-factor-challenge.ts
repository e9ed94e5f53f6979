import type { RequestHandler } from 'express'
import { z } from 'zod'
import type { AppContext } from '../../../context.js'
import { HttpError, fieldError } from '../../../http/errors.js'
import { validate } from '../../../http/validate.js'
import { User } from '../../../models/index.js'
import type { TwoFactorChallenge } from '../models/two-factor-challenge.js'
import { recordCredentialEvent } from '../../../security/credential-events.js'
import { events } from '../../../security/events.js'
import { twoFactorEvents } from '../events.js'
import { signIn } from '../../../services/sign-in.js'
import { clearChallengeCookie, completeChallenge, countAttempt, openChallenge, voidIfSpent } from '../services/challenges.js'
import { decrypt } from '../services/encryption.js'
import { lockedUntil, reachesLockout, SECOND_FACTOR_FAILURE } from '../services/lockout.js'
import { useRecoveryCode } from '../services/recovery-codes.js'
import { acceptStep, stepOfCode } from '../services/totp.js'
import { findUserById, identityOf, serializeUser } from '../../../services/users.js'
import { INVALID_CODE, USED_CODE, codeField, recoveryCodeField } from './fields.js'

export const twoFactorChallengeSchema = z
  .object({ code: codeField.optional(), recovery_code: recoveryCodeField.optional() })
  .refine((input) => input.code !== undefined || input.recovery_code !== undefined, { message: 'The code field is required.', path: ['code'] })

const expired = () => new HttpError(401, 'This sign-in attempt has expired. Please sign in again.')

/** First on the route, so the rate limits can count per user: a request without a live challenge is a 401. */
export function loadChallenge(ctx: AppContext): RequestHandler {
  return async (req, res, next) => {
    const challenge = await openChallenge(req, ctx)
    if (!challenge) {
      clearChallengeCookie(res, ctx)
      throw expired()
    }
    res.locals.twoFactorChallenge = challenge
    next()
  }
}

/** The second step of a login: a code from the authenticator, or one recovery code. */
export function twoFactorChallenge(ctx: AppContext): RequestHandler {
  return async (req, res) => {
    const challenge = res.locals.twoFactorChallenge as TwoFactorChallenge
    const input = validate(twoFactorChallengeSchema, req.body)
    // While the account's second step is locked, no code is even looked at, the right one included.
    const locked = await lockedUntil(challenge.userId)
    if (locked) {
      const seconds = Math.max(1, Math.ceil((locked.getTime() - Date.now()) / 1000))
      res.setHeader('Retry-After', String(seconds))
      throw new HttpError(429, `Too many wrong codes for this account. Please try again in ${seconds} seconds.`)
    }
    if (!(await countAttempt(challenge))) {
      clearChallengeCookie(res, ctx)
      throw expired()
    }
    const user = await User.findByPk(challenge.userId)
    if (!user) throw expired()
    const wrong = input.code !== undefined ? await checkCode(ctx, user, input.code) : await checkRecoveryCode(user, input.recovery_code!)
    if (wrong) {
      // Counted by the per-user and per-IP limits of the route, by the challenge's own 5, and
      // for the account as a whole, from every address, by the lockout.
      res.locals.wrongCode = true
      await voidIfSpent(challenge)
      await recordCredentialEvent(ctx, events.signInFailed, user.id, { req, meta: SECOND_FACTOR_FAILURE })
      if (await reachesLockout(user.id)) await recordCredentialEvent(ctx, twoFactorEvents.lockedOut, user.id, { req })
      throw wrong
    }
    if (!(await completeChallenge(challenge))) throw expired()
    clearChallengeCookie(res, ctx)

    const json = serializeUser((await findUserById(user.id)) ?? user)
    const accessToken = await signIn(req, res, ctx, identityOf(json), challenge.remember, 'second_factor', challenge.factor)
    res.json({ user: json, access_token: accessToken })
  }
}

async function checkCode(ctx: AppContext, user: User, code: string): Promise<HttpError | null> {
  const secret = user.twoFactorSecret ? decrypt(user.twoFactorSecret, ctx.env.ENCRYPTION_KEY) : null
  if (user.twoFactorSecret && !secret) {
    ctx.logger.error({ userId: user.id }, 'two-factor secret does not decrypt: was ENCRYPTION_KEY changed? Recovery codes still work.')
  }
  const step = secret ? stepOfCode(secret, code) : null
  if (step === null) return fieldError('code', INVALID_CODE)
  return (await acceptStep(user.id, step)) ? null : fieldError('code', USED_CODE)
}

async function checkRecoveryCode(user: User, code: string): Promise<HttpError | null> {
  return (await useRecoveryCode(user.id, code)) ? null : fieldError('recovery_code', 'The recovery code is invalid or was already used.')
}
