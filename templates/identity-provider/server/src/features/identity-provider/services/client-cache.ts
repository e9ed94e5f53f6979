import type { AdapterPayload, ClientMetadata } from 'oidc-provider'
import type { AppContext } from '../../../kernel/index.js'
import { OAuthClient } from '../models/oauth-client.js'
import { clientMetadata } from './client-metadata.js'
import { API_SCOPES, OPENID_SCOPES } from './urls.js'

/**
 * A registered client as oidc-provider reads it on every request to the token endpoint. A client
 * is no person's: `userId` 0 matches no revoking event, and the admins' changes drop it (`changed`).
 */
export interface ClientEntry {
  userId: 0
  metadata: ClientMetadata
}

async function loadClient(clientId: string): Promise<ClientEntry | undefined> {
  const client = await OAuthClient.findOne({ where: { clientId } })
  return client ? { userId: 0, metadata: clientMetadata(client) } : undefined
}

/**
 * The kernel's credential cache of clients, by client id: a hit costs no query; a change, a new
 * secret or a deletion drops the client on every instance (through Redis; without it, within
 * the cache's few seconds on the others).
 */
export const clientCache = (ctx: Pick<AppContext, 'authCache'>) => ctx.authCache.credentials<ClientEntry>('oauth-client', loadClient)

/** What a client that registers itself may be: public, asking a person (a code, a device's code), never for itself. */
const SELF_REGISTERED_GRANTS = new Set(['authorization_code', 'refresh_token', 'urn:ietf:params:oauth:grant-type:device_code'])

/**
 * Stores a client that registered itself (RFC 7591, `OAUTH_PROVIDER_REGISTRATION=open`), after
 * oidc-provider checked its metadata: a public one only (no secret: PKCE binds its codes), with
 * the OpenID scopes it asked for and the API's, each of which a person still allows on the consent
 * page. `refuse` is oidc-provider's invalid_client_metadata.
 */
export async function registerClient(clientId: string, metadata: AdapterPayload, refuse: (description: string) => Error): Promise<void> {
  if (metadata.token_endpoint_auth_method !== 'none' || metadata.client_secret !== undefined) throw refuse('only public clients may register: token_endpoint_auth_method must be none')
  const grantTypes = (metadata.grant_types as string[] | undefined) ?? ['authorization_code']
  if (!grantTypes.every((grant) => SELF_REGISTERED_GRANTS.has(grant))) throw refuse(`grant_types may only be ${[...SELF_REGISTERED_GRANTS].join(', ')}`)
  const asked = typeof metadata.scope === 'string' ? metadata.scope.split(' ') : [...OPENID_SCOPES]
  await OAuthClient.create({
    clientId,
    name: typeof metadata.client_name === 'string' && metadata.client_name.trim() ? metadata.client_name.trim().slice(0, 100) : clientId,
    confidential: false,
    secretHash: null,
    redirectUris: JSON.stringify(metadata.redirect_uris ?? []),
    grantTypes: JSON.stringify(grantTypes),
    scopes: JSON.stringify([...OPENID_SCOPES.filter((scope) => asked.includes(scope)), ...API_SCOPES]),
    createdBy: null,
    dynamic: true,
  })
}
