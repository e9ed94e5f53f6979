import { connectionRoutes, oauthSignInRoutes } from '../../routes/oauth.js'
import type { FeatureRoutes } from '../types/routes.js'

export const routes: FeatureRoutes = {
  auth: (router, ctx) => router.use('/oauth', oauthSignInRoutes(ctx)),
  account: (router, ctx) => router.use('/connections', connectionRoutes(ctx)),
}
