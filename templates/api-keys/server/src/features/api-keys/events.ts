import type { CredentialEventKind } from '../../kernel/index.js'

/**
 * The API-key layer's credential events, recorded through the security core like every other (the
 * activity, the owner's notice, the webhooks). Their `meta` names the key by its name and prefix,
 * never the key.
 */
export const apiKeyEvents = {
  created: {
    type: 'api_key_created',
    notice: { subject: 'apiKeyNotices.created.subject', summary: 'apiKeyNotices.created.summary' },
  },
  revoked: { type: 'api_key_revoked' },
} as const satisfies Record<string, CredentialEventKind>
