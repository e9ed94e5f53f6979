import { z } from 'zod'
import { createWebhookSchema, updateWebhookSchema, webhookDeliveriesQuery } from './controllers/schemas.js'
import { paginatedBody, timestamp, type RouteDoc } from '../../kernel/index.js'

const tag = 'Webhooks (admin)'
// paused: the endpoint failed too often in a row; its messages wait until `until`, then one is tried.
const paused = z.object({ since: timestamp, until: timestamp.nullable(), reason: z.string() }).nullable()
const webhook = z.object({ id: z.number().int(), url: z.string(), events: z.array(z.string()), paused, createdAt: timestamp, updatedAt: timestamp })
const delivery = z.object({
  id: z.number().int(),
  event: z.string(),
  status: z.string(),
  attempts: z.number().int(),
  responseStatus: z.number().int().nullable(),
  createdAt: timestamp,
  deliveredAt: timestamp.nullable(),
})
// Behind the admin role (403 for anyone else, and for a session that must confirm it is you first).
const admin = { tag, auth: true, errors: [403] } as const
const withId = { tag, auth: true, errors: [403, 404] } as const

/** `/api/webhooks`: admins only. */
export function webhookRouteDocs(): RouteDoc[] {
  return [
    { method: 'get', path: '/api/webhooks', ...admin, summary: 'The endpoints', responses: { 200: { description: 'Every endpoint, and the event types this app sends', body: z.object({ data: z.array(webhook), events: z.array(z.string()) }) } } },
    { method: 'post', path: '/api/webhooks', ...admin, summary: 'Add an endpoint', body: createWebhookSchema, responses: { 201: { description: 'Added, with its signing secret, shown this once', body: z.object({ webhook: webhook.extend({ secret: z.string() }) }) } } },
    { method: 'patch', path: '/api/webhooks/:id', ...withId, summary: "Change an endpoint's URL or events", body: updateWebhookSchema, responses: { 200: { description: 'The endpoint', body: z.object({ webhook }) } } },
    { method: 'delete', path: '/api/webhooks/:id', ...withId, summary: 'Remove an endpoint', responses: { 204: { description: 'Removed, with its undelivered messages' } } },
    { method: 'get', path: '/api/webhooks/:id/deliveries', ...withId, summary: 'The delivery log', query: webhookDeliveriesQuery, responses: { 200: { description: 'Newest first', body: paginatedBody(delivery) } } },
    { method: 'post', path: '/api/webhooks/:id/test', ...withId, summary: 'Send a test message', responses: { 202: { description: 'Queued', body: z.object({ delivery }) } } },
  ]
}
