import { parsePatterns, type WebhookDelivery, type WebhookEndpoint } from '../../../kernel/index.js'

/**
 * An endpoint as the API shows it: never its secret, which only its creation answer carries.
 * `paused`: its circuit breaker is open (kernel/webhooks/breaker.ts): since when, until when its next
 * attempt waits, and the last failure; null while messages flow.
 */
export const webhookJson = (endpoint: WebhookEndpoint) => ({
  id: endpoint.id,
  url: endpoint.url,
  events: parsePatterns(endpoint.events),
  paused: endpoint.pausedAt
    ? { since: endpoint.pausedAt.toISOString(), until: endpoint.pausedUntil?.toISOString() ?? null, reason: endpoint.pauseReason ?? '' }
    : null,
  createdAt: endpoint.createdAt.toISOString(),
  updatedAt: endpoint.updatedAt.toISOString(),
})

/** A row of the delivery log, in the API's shape (why an attempt failed goes to the server's log). */
export const deliveryJson = (delivery: WebhookDelivery) => ({
  id: delivery.id,
  event: delivery.event,
  status: delivery.status,
  attempts: delivery.attempts,
  responseStatus: delivery.responseStatus ?? null,
  createdAt: delivery.createdAt.toISOString(),
  deliveredAt: delivery.deliveredAt ? delivery.deliveredAt.toISOString() : null,
})
