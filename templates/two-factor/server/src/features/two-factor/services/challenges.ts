import type { Request, Response } from 'express'
import { Op } from 'sequelize'
import { twoFactor } from '../settings.js'
import { type AppContext, clearCookie, cookieNamesOf, hashToken, newOneTimeToken, readSignedCookie, setCookie } from '../../../kernel/index.js'
import { config } from '../config.js'
import { TwoFactorChallenge } from '../models/two-factor-challenge.js'

/**
 * After a correct password of a user with two-factor authentication: no auth cookie yet, only a
 * signed `{name}_2fa` cookie naming a challenge bound to this user and the remember-me choice.
 */
export async function startChallenge(res: Response, ctx: AppContext, userId: number, remember: boolean, factor: string): Promise<void> {
  const token = newOneTimeToken()
  const now = Date.now()
  await TwoFactorChallenge.destroy({ where: { userId, expiresAt: { [Op.lte]: new Date(now) } } })
  await TwoFactorChallenge.create({ id: hashToken(token), userId, remember, factor, expiresAt: new Date(now + twoFactor.challengeSeconds * 1000) })
  setCookie(res, ctx, cookieNamesOf(config, ctx).twoFactor, token, twoFactor.challengeSeconds)
}

/** The live challenge this request's cookie names, if any. */
export async function openChallenge(req: Request, ctx: AppContext): Promise<TwoFactorChallenge | null> {
  const token = readSignedCookie(req, ctx, cookieNamesOf(config, ctx).twoFactor).value
  if (!token) return null
  return TwoFactorChallenge.findOne({
    where: { id: hashToken(token), expiresAt: { [Op.gt]: new Date() }, attempts: { [Op.lt]: twoFactor.challengeAttempts } },
  })
}

/**
 * Counts an attempt before its code is checked, so parallel guesses cannot exceed the limit:
 * false when the challenge is spent, expired or gone meanwhile.
 */
export async function countAttempt(challenge: TwoFactorChallenge): Promise<boolean> {
  const sequelize = TwoFactorChallenge.sequelize!
  const [count] = await TwoFactorChallenge.update(
    { attempts: sequelize.literal('attempts + 1') },
    { where: { id: challenge.id, expiresAt: { [Op.gt]: new Date() }, attempts: { [Op.lt]: twoFactor.challengeAttempts } } },
  )
  return count === 1
}

/** After a wrong code: the one that used up the last attempt voids the challenge. */
export async function voidIfSpent(challenge: TwoFactorChallenge): Promise<void> {
  await TwoFactorChallenge.destroy({ where: { id: challenge.id, attempts: { [Op.gte]: twoFactor.challengeAttempts } } })
}

/** Single use: of two requests completing the same challenge, one deletes it and wins. */
export async function completeChallenge(challenge: TwoFactorChallenge): Promise<boolean> {
  return (await TwoFactorChallenge.destroy({ where: { id: challenge.id } })) === 1
}

export const clearChallengeCookie = (res: Response, ctx: AppContext) => clearCookie(res, ctx, cookieNamesOf(config, ctx).twoFactor)
