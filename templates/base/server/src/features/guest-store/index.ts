import { defineFeature } from '../../kernel/index.js'
import { guestStoreRoutes } from './routes.js'

/** `/api/session`: values kept for a visitor before sign-in (the store itself is kernel/guest-store/). */
export const feature = defineFeature({
  name: 'guest-store',
  routes: { api: (router, _ctx, limits) => router.use('/session', guestStoreRoutes(limits)) },
  openapi: async () => (await import('./openapi.js')).guestStoreRouteDocs(),
})
