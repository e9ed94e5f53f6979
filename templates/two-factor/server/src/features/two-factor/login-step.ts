import { startChallenge } from '../../services/two-factor/challenges.js'
import type { LoginStep } from '../types.js'

/** An account with two-factor on gets a challenge (the `{name}_2fa` cookie) instead of a session. */
export const loginStep: LoginStep = async (_req, res, config, user, remember) => {
  if (!user.json.twoFactorEnabled) return false
  await startChallenge(res, config, user.identity.id, remember)
  res.json({ two_factor: true })
  return true
}
