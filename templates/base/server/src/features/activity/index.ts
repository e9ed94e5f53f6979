import { defineFeature } from '../../kernel/index.js'
import { accountActivityRoutes, adminActivityRoutes } from './routes.js'

/** The credential events (kernel/security/activity.ts) as people read them: their own, and admins' views. */
export const feature = defineFeature({
  name: 'activity',
  routes: { accountShared: accountActivityRoutes, api: adminActivityRoutes },
  openapi: async () => (await import('./openapi.js')).activityRouteDocs(),
})
