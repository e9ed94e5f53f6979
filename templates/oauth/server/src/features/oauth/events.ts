import type { CredentialEventKind } from '../../kernel/index.js'

/** The oauth layer's credential events, recorded through the security core like every other. */
export const oauthEvents = {
  linked: {
    type: 'provider_linked',
    notice: { subject: 'oauthNotices.linked.subject', summary: 'oauthNotices.linked.summary' },
  },
  unlinked: { type: 'provider_unlinked' },
} as const satisfies Record<string, CredentialEventKind>
