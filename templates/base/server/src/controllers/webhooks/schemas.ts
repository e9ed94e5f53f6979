import { z } from 'zod'
import { pageQuery, sizeQuery } from '../../http/schemas.js'

// The bodies and queries of /api/webhooks. The event names are checked against the app's
// catalogue in the controllers (webhooks/catalogue.ts: it depends on the layers).

export const webhookUrlField = z
  .string({ error: (issue) => (issue.input === undefined || issue.input === null ? 'The url field is required.' : 'The url field must be a string.') })
  .trim()
  .min(1, 'The url field is required.')
  .max(2048, 'The url must not be longer than 2048 characters.')
  .refine((value) => URL.canParse(value), 'The url field must be a valid URL.')

export const webhookEventsField = z
  .array(z.string({ error: 'Each event must be a string.' }).trim().min(1, 'Each event must be a string.').max(64, 'Each event must not be longer than 64 characters.'), {
    error: 'The events field must be a list of event types.',
  })
  .min(1, 'The events field must list at least one event type.')
  .max(100, 'The events field must not list more than 100 event types.')

export const createWebhookSchema = z.object({ url: webhookUrlField, events: webhookEventsField })

export const updateWebhookSchema = z.object({ url: webhookUrlField.optional(), events: webhookEventsField.optional() })

export const webhookDeliveriesQuery = z.object({ page: pageQuery, size: sizeQuery })
