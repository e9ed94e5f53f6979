import { passkeyEndpoints } from '../../controllers/passkeys/passkey-endpoints.js'
import { passkeyAccountRoutes, passkeySignInRoutes } from '../../routes/passkeys.js'
import type { FeatureRoutes } from '../types/routes.js'

export const routes: FeatureRoutes = {
  auth: (router, ctx) => router.use('/passkey', passkeySignInRoutes(ctx)),
  account: (router, ctx, passwordChecked) => router.use('/passkeys', passkeyAccountRoutes(ctx, passwordChecked)),
  root: (app, ctx) => app.get('/.well-known/passkey-endpoints', passkeyEndpoints(ctx)),
}
