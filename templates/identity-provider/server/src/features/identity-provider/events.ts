import type { CredentialEventKind } from '../../kernel/index.js'

/**
 * The provider's credential events, through the security core like every other (the activity,
 * the person's notice, the webhooks): an app allowed to use the account, or no longer. Their
 * `meta` names the client, never a token.
 */
export const oauthProviderEvents = {
  authorized: {
    type: 'oauth_app_authorized',
    notice: { subject: 'oauthProviderNotices.authorized.subject', summary: 'oauthProviderNotices.authorized.summary' },
  },
  revoked: { type: 'oauth_app_revoked' },
} as const satisfies Record<string, CredentialEventKind>
