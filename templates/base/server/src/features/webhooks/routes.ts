import { Router } from 'express'
import { authenticate, precognitive, requireConfirmed, requireRole, type AppContext } from '../../kernel/index.js'
import { createWebhookSchema, updateWebhookSchema } from './controllers/schemas.js'
import { createWebhook, deleteWebhook, listDeliveries, listWebhooks, testWebhook, updateWebhook } from './controllers/webhooks.js'

/**
 * Webhook endpoints, for admins. Every change to where the app's events go is step-up: a stolen
 * session could send them anywhere, or silence them by removing an endpoint or its events.
 * A test message changes nothing and needs none.
 */
export function webhookRoutes(ctx: AppContext): Router {
  const router = Router()
  const admin = [authenticate(ctx), requireRole('admin')]
  const confirmed = requireConfirmed(ctx)
  router.get('/', ...admin, listWebhooks(ctx))
  router.post('/', ...admin, precognitive(createWebhookSchema), confirmed, createWebhook(ctx))
  router.patch('/:id', ...admin, precognitive(updateWebhookSchema), confirmed, updateWebhook(ctx))
  router.delete('/:id', ...admin, confirmed, deleteWebhook(ctx))
  router.get('/:id/deliveries', ...admin, listDeliveries())
  router.post('/:id/test', ...admin, testWebhook(ctx))
  return router
}
