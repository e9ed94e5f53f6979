import type { RequestHandler } from 'express'
import { z } from 'zod'
import { type AppContext, findUserById, HttpError, identityOf, msg, serializeUser, signIn, User, validate } from '../../../kernel/index.js'
import type { TwoFactorChallenge } from '../models/two-factor-challenge.js'
import { clearChallengeCookie, completeChallenge, countAttempt, openChallenge, voidIfSpent } from '../services/challenges.js'
import { checkCode, checkRecoveryCode, countWrongSecondFactor, refuseWhileLocked } from '../services/second-factor.js'
import { codeField, recoveryCodeField } from './fields.js'

export const twoFactorChallengeSchema = z
  .object({ code: codeField.optional(), recovery_code: recoveryCodeField.optional() })
  .refine((input) => input.code !== undefined || input.recovery_code !== undefined, { message: msg('validation.required', { field: 'code' }), path: ['code'] })

const expired = () => new HttpError(401, 'twoFactor.expired')

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
    await refuseWhileLocked(res, challenge.userId)
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
      await countWrongSecondFactor(ctx, req, user.id)
      throw wrong
    }
    if (!(await completeChallenge(challenge))) throw expired()
    clearChallengeCookie(res, ctx)

    const json = serializeUser((await findUserById(user.id)) ?? user)
    const accessToken = await signIn(req, res, ctx, identityOf(json), challenge.remember, 'second_factor', challenge.factor)
    res.json({ user: json, access_token: accessToken })
  }
}
