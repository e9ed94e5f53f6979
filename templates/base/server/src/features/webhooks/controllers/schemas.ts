import { z } from 'zod'
import { msg, pageQuery, sizeQuery } from '../../../kernel/index.js'

// The bodies and queries of /api/webhooks; messages are catalogue keys (i18n/messages/). The
// event names are checked against the app's catalogue in the controllers (kernel/webhooks/catalogue.ts:
// it depends on the layers).

export const webhookUrlField = z
  .string({ error: (issue) => msg(issue.input === undefined || issue.input === null ? 'validation.required' : 'validation.string', { field: 'url' }) })
  .trim()
  .min(1, msg('validation.required', { field: 'url' }))
  .max(2048, msg('validation.tooLong', { field: 'url', max: 2048 }))
  .refine((value) => URL.canParse(value), 'webhooks.url')

export const webhookEventsField = z
  .array(z.string({ error: 'webhooks.event' }).trim().min(1, 'webhooks.event').max(64, msg('webhooks.eventLong', { max: 64 })), { error: 'webhooks.events' })
  .min(1, 'webhooks.eventsEmpty')
  .max(100, msg('webhooks.eventsLong', { max: 100 }))

export const createWebhookSchema = z.object({ url: webhookUrlField, events: webhookEventsField })

export const updateWebhookSchema = z.object({ url: webhookUrlField.optional(), events: webhookEventsField.optional() })

export const webhookDeliveriesQuery = z.object({ page: pageQuery, size: sizeQuery })
