import type { CredentialEventKind } from '../../kernel/index.js'

/** The passkeys layer's credential events, recorded through the security core like every other. */
export const passkeyEvents = {
  added: {
    type: 'passkey_added',
    notice: { subject: 'passkeyNotices.added.subject', summary: 'passkeyNotices.added.summary' },
  },
  removed: { type: 'passkey_removed' },
} as const satisfies Record<string, CredentialEventKind>
