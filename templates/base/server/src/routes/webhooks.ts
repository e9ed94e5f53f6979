import { Router } from 'express'
import type { AppContext } from '../context.js'
import { createWebhookSchema, updateWebhookSchema } from '../controllers/webhooks/schemas.js'
import { createWebhook, deleteWebhook, listDeliveries, listWebhooks, testWebhook, updateWebhook } from '../controllers/webhooks/webhooks.js'
import { authenticate } from '../middleware/authenticate.js'
import { precognitive } from '../middleware/precognition.js'
import { requireConfirmed } from '../middleware/require-confirmed.js'
import { requireRole } from '../middleware/require-role.js'

/** Webhook endpoints, for admins. Where the app's events go is step-up (a stolen session could send them anywhere). */
export function webhookRoutes(ctx: AppContext): Router {
  const router = Router()
  const admin = [authenticate(ctx), requireRole('admin')]
  const confirmed = requireConfirmed(ctx)
  const urlChange = requireConfirmed(ctx, { when: (req) => (req.body as { url?: unknown } | undefined)?.url !== undefined })
  router.get('/', ...admin, listWebhooks(ctx))
  router.post('/', ...admin, precognitive(createWebhookSchema), confirmed, createWebhook(ctx))
  router.patch('/:id', ...admin, precognitive(updateWebhookSchema), urlChange, updateWebhook(ctx))
  router.delete('/:id', ...admin, deleteWebhook(ctx))
  router.get('/:id/deliveries', ...admin, listDeliveries())
  router.post('/:id/test', ...admin, testWebhook(ctx))
  return router
}
