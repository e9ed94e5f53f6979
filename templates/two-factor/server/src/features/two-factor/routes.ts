import { twoFactorAccountRoutes, twoFactorChallengeRoute } from '../../routes/two-factor.js'
import type { FeatureRoutes } from '../types.js'

export const routes: FeatureRoutes = {
  auth: (router, config) => router.post('/two-factor-challenge', ...twoFactorChallengeRoute(config)),
  account: (router, config, passwordChecked) => router.use('/two-factor', twoFactorAccountRoutes(config, passwordChecked)),
}
