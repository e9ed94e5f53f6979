import { defineFeature } from '../../kernel/index.js'
import { userRoutes } from './routes.js'

/** Admins' list of users: search, roles, sign-outs, deletions. */
export const feature = defineFeature({
  name: 'admin-users',
  routes: { api: (router, ctx) => router.use('/users', userRoutes(ctx)) },
  openapi: async () => (await import('./openapi.js')).adminUserRouteDocs(),
})
