import { defineFeature } from '../../kernel/index.js'
import { sessionRoutes } from './routes.js'

/** The user's signed-in devices, each one a session that can be ended from any other. */
export const feature = defineFeature({
  name: 'device-sessions',
  routes: { account: sessionRoutes },
  openapi: async () => (await import('./openapi.js')).sessionRouteDocs(),
})
