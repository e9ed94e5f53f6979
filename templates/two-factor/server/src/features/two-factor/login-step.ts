import { startChallenge } from '../../services/two-factor/challenges.js'
import type { LoginStep } from '../types/login-step.js'

/** An account with two-factor on gets a challenge (the `{name}_2fa` cookie) instead of a session. */
export const loginStep: LoginStep = async (_req, res, ctx, user, remember) => {
  if (!user.json.twoFactorEnabled) return undefined
  await startChallenge(res, ctx, user.identity.id, remember)
  return { body: { two_factor: true }, page: '/two-factor-challenge' }
}
