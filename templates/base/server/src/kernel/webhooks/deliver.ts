import type { Agent } from 'node:http'
import { LRUCache } from 'lru-cache'
import { defaultLocale } from '../i18n/locales.js'
import { translator } from '../i18n/translate.js'
import type { Logger } from '../logger.js'
import { jittered } from '../jobs/jitter.js'
import { RetryLater, type RetryPolicy } from '../jobs/types.js'
import { WebhookDelivery, WebhookEndpoint } from '../models/index.js'
import { pinnedLookup, type ResolvedAddress } from './address-guard.js'
import { waitUntil, WebhookBreaker, type BreakerPolicy } from './breaker.js'
import type { WebhookHub } from './hub.js'
import { openWebhookSecret } from './secrets.js'

/** An attempt's whole budget: connecting, sending and the receiver's answer. */
export const DELIVERY_TIMEOUT_MS = 5000

/**
 * Attempts one endpoint may have in flight on an instance, so that a receiver that hangs holds a
 * few of the job slots, never all of them: others' deliveries and the app's mail keep going.
 * One that timed out or could not be reached lately gets a single one.
 */
const IN_FLIGHT = 8
const TROUBLED_IN_FLIGHT = 1
const TROUBLE_MS = 60_000
/**
 * When an endpoint has no free slot its message waits (not counted as an attempt): this long at
 * first, doubling with each refusal in a row up to the longest, jittered.
 */
const BUSY_WAIT_MS = 250
const BUSY_WAIT_MAX_MS = DELIVERY_TIMEOUT_MS

export interface DeliveryDeps {
  env: { COOKIE_SECRET: string }
  logger: Logger
  webhooks: WebhookHub
  retry: RetryPolicy
  breaker: BreakerPolicy
}

/**
 * The `webhook:deliver` job: one attempt of one message, as Standard Webhooks has it (`webhook-id`
 * kept across attempts, `webhook-timestamp` of this attempt, a `v1` HMAC-SHA256 signature over
 * both and the body). A 2xx answer delivers it; anything else (another status, a timeout, no
 * connection) throws, and the queue retries it with exponential back-off for about a day
 * (kernel/jobs/types.ts), after which it is marked failed. The address is checked again before each
 * attempt, and the connection goes to that very address. An endpoint that keeps failing is
 * paused by its breaker (kernel/webhooks/breaker.ts): its messages wait, uncounted, until it answers.
 */
export function webhookDelivery(deps: DeliveryDeps): (job: { deliveryId: number; endpointId?: number }) => Promise<void> {
  const inFlight = new Map<number, number>()
  const troubledUntil = new Map<number, number>()
  const refusedInARow = new Map<number, number>()
  /** Endpoints this instance found paused, until when: their messages wait without a query (BullMQ hands each one over). */
  const pausedUntil = new Map<number, number>()
  const breaker = new WebhookBreaker(deps.breaker, deps.logger, DELIVERY_TIMEOUT_MS + 5000)

  return async ({ deliveryId, endpointId }) => {
    if (endpointId !== undefined) {
      const paused = pausedUntil.get(endpointId) ?? 0
      if (paused > Date.now()) throw new RetryLater(waitUntil(paused))
      pausedUntil.delete(endpointId)
    }
    const delivery = await WebhookDelivery.findByPk(deliveryId)
    if (!delivery || delivery.payload === null) return
    const endpoint = await WebhookEndpoint.findByPk(delivery.endpointId)
    // Deleted meanwhile (the row was written as the endpoint went).
    if (!endpoint) return void (await delivery.destroy())

    const limit = (troubledUntil.get(endpoint.id) ?? 0) > Date.now() ? TROUBLED_IN_FLIGHT : IN_FLIGHT
    const busy = inFlight.get(endpoint.id) ?? 0
    if (busy >= limit) {
      const refused = (refusedInARow.get(endpoint.id) ?? 0) + 1
      refusedInARow.set(endpoint.id, refused)
      throw new RetryLater(jittered(Math.min(BUSY_WAIT_MS * 2 ** (refused - 1), BUSY_WAIT_MAX_MS)))
    }
    refusedInARow.delete(endpoint.id)
    const admission = await breaker.admit(endpoint)
    if (!admission.go) {
      if (admission.until !== undefined) pausedUntil.set(endpoint.id, admission.until)
      throw new RetryLater(admission.waitMs)
    }
    inFlight.set(endpoint.id, busy + 1)
    try {
      await attempt(deps, delivery, endpoint, breaker, (troubled) => {
        if (troubled) troubledUntil.set(endpoint.id, Date.now() + TROUBLE_MS)
        else troubledUntil.delete(endpoint.id)
      })
    } finally {
      const left = (inFlight.get(endpoint.id) ?? 1) - 1
      if (left > 0) inFlight.set(endpoint.id, left)
      else inFlight.delete(endpoint.id)
    }
  }
}

async function attempt(deps: DeliveryDeps, delivery: WebhookDelivery, endpoint: WebhookEndpoint, breaker: WebhookBreaker, trouble: (troubled: boolean) => void): Promise<void> {
  const secret = openWebhookSecret(endpoint.secret, deps.env.COOKIE_SECRET)
  if (!secret) {
    deps.logger.error({ endpoint: endpoint.id }, 'Webhook secret does not decrypt: was COOKIE_SECRET changed? Make the endpoint again.')
    return void (await finish(delivery, { status: 'failed', error: 'The endpoint secret cannot be read.' }))
  }
  const url = new URL(endpoint.url)
  const checked = await deps.webhooks.guard.check(url)
  if ('problem' in checked) {
    // Not retried: a name that now points inside is refused for good, not tried again later.
    const problem = translator(defaultLocale)(checked.problem)
    deps.logger.warn({ endpoint: endpoint.id, delivery: delivery.id }, `Webhook refused: ${problem}`)
    return void (await finish(delivery, { status: 'failed', error: problem.slice(0, 255) }))
  }

  const { Webhook } = await import('standardwebhooks')
  const sentAt = new Date()
  const body = delivery.payload!
  const headers = {
    'content-type': 'application/json',
    'user-agent': 'webhooks',
    'webhook-id': delivery.messageId,
    'webhook-timestamp': String(Math.floor(sentAt.getTime() / 1000)),
    'webhook-signature': new Webhook(secret).sign(delivery.messageId, sentAt, body),
  }
  let status: number | null = null
  let error: string | null = null
  try {
    status = await post(endpoint.id, url, checked.target, headers, body)
  } catch (thrown) {
    error = describe(thrown)
  }
  trouble(status === null)
  const attempts = delivery.attempts + 1
  const delivered = status !== null && status >= 200 && status < 300
  const last = attempts >= deps.retry.attempts
  await finish(delivery, {
    attempts,
    responseStatus: status,
    error: delivered ? null : (error ?? `HTTP ${status}`),
    status: delivered ? 'delivered' : last ? 'failed' : 'retrying',
    ...(delivered ? { deliveredAt: new Date() } : {}),
  })
  await breaker.record(endpoint, delivered ? null : (error ?? `HTTP ${status}`))
  if (!delivered && !last) throw new Error(`Webhook delivery ${delivery.id} to endpoint ${endpoint.id}: ${error ?? `HTTP ${status}`}`)
  if (!delivered) deps.logger.error({ endpoint: endpoint.id, delivery: delivery.id }, `Webhook delivery given up after ${attempts} attempts`)
}

/** Once a delivery is over, its body goes: the log keeps what happened, not what was sent. */
function finish(delivery: WebhookDelivery, values: Partial<Pick<WebhookDelivery, 'status' | 'attempts' | 'responseStatus' | 'error' | 'deliveredAt'>>): Promise<unknown> {
  const over = values.status === 'delivered' || values.status === 'failed'
  return delivery.update({ ...values, ...(over ? { payload: null } : {}) })
}

/**
 * Kept-alive connections, one pool per endpoint, origin and checked address: the next message to a
 * receiver skips the TCP and TLS handshakes, and a name that now resolves elsewhere gets a pool
 * of its own (a pool only ever connects to the address it was made for). Per endpoint: two
 * endpoints on one host (two paths of one service) must not wait for each other's sockets, so a
 * path that hangs never holds back its neighbour's messages.
 */
const pools = new LRUCache<string, Agent>({ max: 100, ttl: 60_000, dispose: (agent) => agent.destroy() })

/** POSTs the body to the checked address; the status of the answer (its body is read and dropped). */
async function post(endpointId: number, url: URL, target: ResolvedAddress, headers: Record<string, string>, body: string): Promise<number> {
  // Loaded with the first delivery: an app without webhooks never loads the TLS client.
  const client = url.protocol === 'https:' ? await import('node:https') : await import('node:http')
  const poolKey = `${endpointId}|${url.origin}|${target.address}`
  let agent = pools.get(poolKey)
  if (!agent) {
    agent = new client.Agent({ keepAlive: true, maxSockets: IN_FLIGHT, timeout: DELIVERY_TIMEOUT_MS, lookup: pinnedLookup(target) } as ConstructorParameters<typeof client.Agent>[0])
    pools.set(poolKey, agent)
  }
  return new Promise((resolve, reject) => {
    const request = client.request(url, { method: 'POST', headers, agent, lookup: pinnedLookup(target), signal: AbortSignal.timeout(DELIVERY_TIMEOUT_MS) }, (response) => {
      resolve(response.statusCode ?? 0)
      response.resume()
    })
    request.on('error', reject)
    request.end(body)
  })
}

function describe(error: unknown): string {
  const { name, code, message } = error as NodeJS.ErrnoException
  if (name === 'TimeoutError' || name === 'AbortError') return `No answer within ${DELIVERY_TIMEOUT_MS / 1000} s.`
  return (code ?? message ?? 'The request failed.').slice(0, 255)
}
