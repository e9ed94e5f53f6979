import type { CredentialEventKind } from '../../../kernel/index.js'

/**
 * A team key's making and revoking: the account keys' event types, with `meta.teamId`, on the
 * activity of whoever acted. No notice is mailed: the key is the team's, and the team's owners and
 * admins see it listed.
 */
export const teamKeyEvents = {
  created: { type: 'api_key_created' },
  revoked: { type: 'api_key_revoked' },
} as const satisfies Record<string, CredentialEventKind>
