import { startChallenge } from '../../services/two-factor/challenges.js'
import type { LoginStep } from '../types/login-step.js'

/** An account with two-factor on gets a challenge (the `{name}_2fa` cookie) instead of a session. */
export const loginStep: LoginStep = async (_req, res, ctx, user, remember) => {
  if (!user.json.twoFactorEnabled) return false
  await startChallenge(res, ctx, user.identity.id, remember)
  res.json({ two_factor: true })
  return true
}
