import type { CredentialEventKind } from '../../kernel/index.js'

/**
 * The SSO layer's events, recorded through the security core with `meta.teamId` first, as the
 * teams' own are. Only a SCIM deprovisioning of an account the team made ends sessions: a connection
 * changes who may sign in next, not who is in.
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
  /** The owner's: a SCIM token made (`meta.prefix` names it, never the token). */
  scimTokenCreated: { type: 'sso_scim_token_created' },
  /** The owner's: a SCIM token revoked. */
  scimTokenRevoked: { type: 'sso_scim_token_revoked' },
  /** The member's: the team's IdP provisioned them through SCIM (`meta.created`: the account was made just then; `meta.reactivated`). */
  scimProvisioned: { type: 'sso_scim_provisioned' },
  /**
   * The member's: the team's IdP deactivated or deleted them through SCIM, and they left the team;
   * with `meta.suspended` the team had made the account, which is suspended and whose sessions,
   * keys and grants end with this event (the caller passes `revoke: 'all'` then).
   */
  scimDeprovisioned: { type: 'sso_scim_deprovisioned' },
  /** The member's: the team's IdP moved them to another group, so another role (`meta.from`, `meta.to`). */
  scimRoleChanged: { type: 'sso_scim_role_changed' },
} as const satisfies Record<string, CredentialEventKind>

/** Sent under `team.`, beside the teams' events, so that `team.*` takes them too. */
export const ssoWebhookEvents: Record<(typeof ssoEvents)[keyof typeof ssoEvents]['type'], string> = {
  sso_domain_added: 'team.sso_domain_added',
  sso_domain_verified: 'team.sso_domain_verified',
  sso_connection_saved: 'team.sso_connection_saved',
  sso_connection_deleted: 'team.sso_connection_deleted',
  sso_sign_in: 'team.sso_sign_in',
  sso_scim_token_created: 'team.sso_scim_token_created',
  sso_scim_token_revoked: 'team.sso_scim_token_revoked',
  sso_scim_provisioned: 'team.sso_scim_provisioned',
  sso_scim_deprovisioned: 'team.sso_scim_deprovisioned',
  sso_scim_role_changed: 'team.sso_scim_role_changed',
}
