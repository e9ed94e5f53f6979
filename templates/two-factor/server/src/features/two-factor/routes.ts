import { twoFactorAccountRoutes, twoFactorChallengeRoute } from '../../routes/two-factor.js'
import type { FeatureRoutes } from '../types/routes.js'

export const routes: FeatureRoutes = {
  auth: (router, ctx) => router.post('/two-factor-challenge', ...twoFactorChallengeRoute(ctx)),
  account: (router, ctx, passwordChecked) => router.use('/two-factor', twoFactorAccountRoutes(ctx, passwordChecked)),
}
