import type { CredentialEventKind } from '../../kernel/index.js'

/**
 * The SSO layer's events, recorded through the security core with `meta.teamId` first, as the
 * teams' own are. None ends a session: a connection changes who may sign in next, not who is in.
 */
export const ssoEvents = {
  /** The owner's: a domain claimed, its TXT record still to be published. */
  domainAdded: { type: 'sso_domain_added' },
  /** The owner's: the TXT record was found, the domain is the team's. */
  domainVerified: { type: 'sso_domain_verified' },
  /** The owner's: the team's connection set up or replaced. */
  connectionSaved: { type: 'sso_connection_saved' },
  /** The owner's: the connection removed; the domains' addresses sign in as anyone else again. */
  connectionDeleted: { type: 'sso_connection_deleted' },
  /** The member's: the team's IdP vouched for them, a sign-in follows (`meta.created`: the account was made just then). */
  signedIn: { type: 'sso_sign_in' },
} as const satisfies Record<string, CredentialEventKind>

/** Sent under `team.`, beside the teams' events, so that `team.*` takes them too. */
export const ssoWebhookEvents: Record<(typeof ssoEvents)[keyof typeof ssoEvents]['type'], string> = {
  sso_domain_added: 'team.sso_domain_added',
  sso_domain_verified: 'team.sso_domain_verified',
  sso_connection_saved: 'team.sso_connection_saved',
  sso_connection_deleted: 'team.sso_connection_deleted',
  sso_sign_in: 'team.sso_sign_in',
}
