import { defineFeature } from '../../kernel/index.js'
import { adminUserJobs } from './jobs.js'
import { impersonationRoutes, userRoutes } from './routes.js'

/** Admins' list of users: search, roles, sign-outs, deletions, suspensions and impersonation. */
export const feature = defineFeature({
  name: 'admin-users',
  routes: { api: (router, ctx) => router.use('/users', userRoutes(ctx)), auth: impersonationRoutes },
  jobs: adminUserJobs,
  openapi: async () => (await import('./openapi.js')).adminUserRouteDocs(),
})
