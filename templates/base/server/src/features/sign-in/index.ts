import { defineFeature } from '../../kernel/index.js'
import { signInJobs } from './jobs.js'
import { signInRoutes } from './routes.js'

/** Registration and sign-in with a password, renewing the session, signing out, and the password reset link. */
export const feature = defineFeature({
  name: 'sign-in',
  routes: { auth: signInRoutes },
  jobs: signInJobs,
  openapi: async (ctx) => (await import('./openapi.js')).signInRouteDocs(ctx),
})
