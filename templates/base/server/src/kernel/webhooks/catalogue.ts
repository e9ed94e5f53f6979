import { events } from '../security/events.js'

/** What a layer adds to the events webhooks send (kernel/feature.ts `events`, renamed by `webhookEvents`). */
export type WebhookEventsOf = readonly { events?: Readonly<Record<string, { type: string }>>; webhookEvents?: Readonly<Record<string, string>> }[]

/** Sent to one endpoint by `POST /api/webhooks/:id/test`, whatever it subscribes to. */
export const TEST_EVENT = 'webhook.test'

/** Credential events, sent under their own type. */
export const sentAsThemselves = (kinds: Readonly<Record<string, { type: string }>>): Record<string, string> =>
  Object.fromEntries(Object.values(kinds).map((kind) => [kind.type, kind.type]))

/**
 * The event types an endpoint may subscribe to: every credential event under its own type
 * (`password_changed`), `user.created` and `user.deleted`, and what the layers add, which may
 * rename their credential events (a layer's `group_created` sent as `group.created`).
 */
export class WebhookCatalogue {
  readonly types: readonly string[]
  /** The credential event types it sends (each under `typeOf`). */
  readonly credentialTypes: readonly string[]
  private readonly renamed: Map<string, string>

  constructor(features: WebhookEventsOf) {
    const mapping: Record<string, string> = sentAsThemselves(events)
    for (const feature of features) Object.assign(mapping, sentAsThemselves(feature.events ?? {}), feature.webhookEvents)
    this.renamed = new Map(Object.entries(mapping))
    this.credentialTypes = Object.keys(mapping)
    this.types = [...new Set([...Object.values(mapping), 'user.created', 'user.deleted'])].sort()
  }

  /** The type a credential event is sent as. */
  typeOf(credentialType: string): string {
    return this.renamed.get(credentialType) ?? credentialType
  }

  /** `*`, a known type, or `prefix.*` covering at least one known type. */
  isPattern(pattern: string): boolean {
    if (pattern === '*' || this.types.includes(pattern)) return true
    return pattern.endsWith('.*') && this.types.some((type) => type.startsWith(pattern.slice(0, -1)))
  }
}

export function subscribes(patterns: readonly string[], type: string): boolean {
  return patterns.some((pattern) => pattern === '*' || pattern === type || (pattern.endsWith('.*') && type.startsWith(pattern.slice(0, -1))))
}
