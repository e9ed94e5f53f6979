import { defineFeature } from '../../kernel/index.js'
import { webhookRoutes } from './routes.js'

/** Admins' webhook endpoints; the events and their delivery are the kernel's (kernel/webhooks/). */
export const feature = defineFeature({
  name: 'webhooks',
  routes: { api: (router, ctx) => router.use('/webhooks', webhookRoutes(ctx)) },
  openapi: async () => (await import('./openapi.js')).webhookRouteDocs(),
})
