import { Op } from 'sequelize'
import type { Logger } from '../logger.js'
import { jittered } from '../jobs/jitter.js'
import { WebhookEndpoint } from '../models/index.js'

export interface BreakerPolicy {
  /** Failed attempts in a row (timeouts, refused connections, non-2xx answers) that pause an endpoint. */
  failures: number
  /** The first pause; each failed probe after one makes the next pause as long as the endpoint has been paused so far. */
  pauseMs: number
  maxPauseMs: number
}

/** 5 failures in a row pause an endpoint for a minute, then 2, 4, 8... up to an hour between probes. */
export const webhookBreakerPolicy: BreakerPolicy = { failures: 5, pauseMs: 60_000, maxPauseMs: 3600_000 }

/** Messages that waited come back over this long after their wait, not all in the same instant. */
const RETURN_SPREAD_MS = 2000

/** What an attempt may do now: go, or wait this long (not counted as an attempt); `until`: the pause's end. */
export type Admission = { go: true } | { go: false; waitMs: number; until?: number }

/**
 * Each endpoint's circuit breaker, kept in its row so that every instance sees it. Closed, every
 * message goes. After `failures` failed attempts in a row it opens: the endpoint is paused, its
 * messages wait (their attempts uncounted, so none is given up meanwhile) and the admin sees why
 * (`GET /api/webhooks`, the admin page, the log). When the pause ends one message is let through
 * as a probe (half open): delivered, the endpoint is resumed and the others follow; failed, it is
 * paused again, longer.
 */
/** A paused endpoint's message comes back after the pause, spread out. */
export const waitUntil = (until: number) => until - Date.now() + jittered(RETURN_SPREAD_MS)

export class WebhookBreaker {
  constructor(
    private readonly policy: BreakerPolicy,
    private readonly logger: Logger,
    /** How long a probe has the endpoint to itself: an attempt's whole budget and a margin. */
    private readonly probeMs: number,
  ) {}

  async admit(endpoint: WebhookEndpoint): Promise<Admission> {
    const until = endpoint.pausedUntil?.getTime()
    if (until === undefined) return { go: true }
    const now = Date.now()
    if (until > now) return { go: false, waitMs: waitUntil(until), until }
    // Half open: the instance whose update lands sends the probe; the others look again shortly.
    const [probing] = await WebhookEndpoint.update({ pausedUntil: new Date(now + this.probeMs) }, { where: { id: endpoint.id, pausedUntil: { [Op.lte]: new Date(now) } } })
    return probing === 1 ? { go: true } : { go: false, waitMs: jittered(RETURN_SPREAD_MS) }
  }

  async record(endpoint: WebhookEndpoint, failure: string | null): Promise<void> {
    if (failure === null) return this.succeeded(endpoint)
    await WebhookEndpoint.increment('failureStreak', { where: { id: endpoint.id } })
    await endpoint.reload({ attributes: ['failureStreak', 'pausedAt'] })
    if (endpoint.failureStreak < this.policy.failures) return
    const now = new Date()
    const pausedFor = endpoint.pausedAt ? now.getTime() - endpoint.pausedAt.getTime() : 0
    const pauseMs = Math.min(Math.max(pausedFor, this.policy.pauseMs), this.policy.maxPauseMs)
    const pausedUntil = new Date(now.getTime() + pauseMs)
    const [opened] = await WebhookEndpoint.update({ pausedAt: now, pausedUntil, pauseReason: failure }, { where: { id: endpoint.id, pausedAt: null } })
    if (opened === 1) {
      this.logger.warn({ endpoint: endpoint.id, reason: failure }, `Webhook endpoint ${endpoint.id} paused after ${endpoint.failureStreak} failed attempts in a row; its messages wait until ${pausedUntil.toISOString()}`)
      return
    }
    await WebhookEndpoint.update({ pausedUntil, pauseReason: failure }, { where: { id: endpoint.id } })
  }

  private async succeeded(endpoint: WebhookEndpoint): Promise<void> {
    if (endpoint.failureStreak === 0 && !endpoint.pausedAt) return
    const [resumed] = await WebhookEndpoint.update(
      { failureStreak: 0, pausedAt: null, pausedUntil: null, pauseReason: null },
      { where: { id: endpoint.id, [Op.or]: [{ failureStreak: { [Op.gt]: 0 } }, { pausedAt: { [Op.ne]: null } }] } },
    )
    if (resumed === 1 && endpoint.pausedAt) this.logger.info({ endpoint: endpoint.id }, `Webhook endpoint ${endpoint.id} answers again: resumed`)
  }
}
