import { defineFeature } from '../../kernel/index.js'
import { verificationJobs } from './jobs.js'
import { verificationRoutes } from './routes.js'

/** The mailed link that proves an address (with REQUIRE_EMAIL_VERIFICATION, before the first sign-in). */
export const feature = defineFeature({
  name: 'email-verification',
  routes: { auth: verificationRoutes },
  jobs: verificationJobs,
  openapi: async () => (await import('./openapi.js')).verificationRouteDocs(),
})
