import { defineFeature } from '../../kernel/index.js'
import { accountJobs } from './jobs.js'
import { accountRoutes, openAccountRoutes } from './routes.js'

/** The signed-in user's own account: profile, e-mail address, password, deleting it. */
export const feature = defineFeature({
  name: 'account',
  routes: { accountOpen: openAccountRoutes, account: accountRoutes },
  jobs: accountJobs,
  openapi: async () => (await import('./openapi.js')).accountRouteDocs(),
})
