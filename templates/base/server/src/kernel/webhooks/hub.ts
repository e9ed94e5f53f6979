import { randomUUID } from 'node:crypto'
import type { Transaction } from 'sequelize'
import { WebhookDelivery, WebhookEndpoint } from '../models/index.js'
import type { AddressGuard } from './address-guard.js'
import { subscribes, type WebhookCatalogue } from './catalogue.js'

/** One event as a webhook message carries it: `{type, timestamp, data}`. */
export interface WebhookEvent {
  data: Record<string, unknown>
  timestamp: Date
}

/** How the hub queues a message: the app's job queue, or the outbox alone (a command-line script). Spelled out: kernel/jobs/types.ts names the hub. */
export interface WebhookQueue {
  dispatch(name: 'webhook:deliver', data: { deliveryId: number; endpointId: number }, transaction?: Transaction): Promise<void>
}

/** The longest an instance trusts its copy of the subscriptions without asking the database. */
const SUBSCRIPTIONS_TTL_MS = 5000

/**
 * The app's side of webhooks: which event types some endpoint takes, and the messages an event
 * makes. `emit` runs in the transaction of the event itself, so a message exists with its event
 * or not at all, and the request pays for nothing more than its rows: a delivery row and an
 * outbox job per endpoint, and not even the lookup of endpoints when none subscribes (the
 * instance keeps the subscribed patterns for 5 s at most, dropped at once when this instance
 * changes an endpoint). Sending is the `webhook:deliver` job's (kernel/webhooks/deliver.ts).
 */
export class WebhookHub {
  private patterns: string[][] | undefined
  private loadedAt = 0
  private loading: Promise<string[][]> | undefined

  constructor(
    private readonly queue: WebhookQueue,
    readonly catalogue: WebhookCatalogue,
    readonly guard: AddressGuard,
  ) {}

  /** Whether any endpoint takes this type: from memory, but once every 5 s (outside any transaction). */
  async subscribed(type: string): Promise<boolean> {
    return (this.fresh() ?? (await this.load())).some((patterns) => subscribes(patterns, type))
  }

  /** An endpoint was made, changed or deleted here. */
  changed(): void {
    this.patterns = undefined
  }

  /** One message per event for every endpoint that takes `type`, in the event's transaction. */
  async emit(type: string, items: readonly WebhookEvent[], transaction?: Transaction): Promise<void> {
    const known = this.fresh()
    if (items.length === 0 || (known && !known.some((patterns) => subscribes(patterns, type)))) return
    // Read in the event's transaction: what it sends is what the endpoints were when it committed.
    const rows = await WebhookEndpoint.findAll({ attributes: ['id', 'events'], order: [['id', 'ASC']], transaction })
    this.remember(rows.map((row) => parsePatterns(row.events)))
    const endpoints = rows.filter((row) => subscribes(parsePatterns(row.events), type))
    if (endpoints.length === 0) return
    const messages = items.map((item) => ({ messageId: `msg_${randomUUID()}`, payload: JSON.stringify({ type, timestamp: item.timestamp.toISOString(), data: item.data }) }))
    for (const endpoint of endpoints) for (const message of messages) await this.enqueue(endpoint.id, type, message, transaction)
  }

  /** A message to one endpoint only (the admin's test). */
  async sendTo(endpointId: number, type: string, event: WebhookEvent): Promise<WebhookDelivery> {
    const message = { messageId: `msg_${randomUUID()}`, payload: JSON.stringify({ type, timestamp: event.timestamp.toISOString(), data: event.data }) }
    return WebhookEndpoint.sequelize!.transaction((transaction) => this.enqueue(endpointId, type, message, transaction))
  }

  private async enqueue(endpointId: number, event: string, message: { messageId: string; payload: string }, transaction?: Transaction): Promise<WebhookDelivery> {
    const delivery = await WebhookDelivery.create({ endpointId, event, ...message, status: 'pending', createdAt: new Date() }, { transaction })
    await this.queue.dispatch('webhook:deliver', { deliveryId: delivery.id, endpointId }, transaction)
    return delivery
  }

  private fresh(): string[][] | undefined {
    return this.patterns && Date.now() - this.loadedAt < SUBSCRIPTIONS_TTL_MS ? this.patterns : undefined
  }

  private remember(patterns: string[][]): string[][] {
    this.patterns = patterns
    this.loadedAt = Date.now()
    return patterns
  }

  private load(): Promise<string[][]> {
    this.loading ??= WebhookEndpoint.findAll({ attributes: ['events'] })
      .then((rows) => this.remember(rows.map((row) => parsePatterns(row.events))))
      .finally(() => {
        this.loading = undefined
      })
    return this.loading
  }
}

export function parsePatterns(events: string): string[] {
  try {
    const parsed: unknown = JSON.parse(events)
    return Array.isArray(parsed) ? parsed.filter((entry): entry is string => typeof entry === 'string') : []
  } catch {
    return []
  }
}
