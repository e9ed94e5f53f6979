import type { ClientMetadata } from 'oidc-provider'
import type { OAuthClient } from '../models/oauth-client.js'
import { API_SCOPES, OPENID_SCOPES } from './urls.js'

export type GrantType = 'authorization_code' | 'refresh_token' | 'client_credentials' | 'urn:ietf:params:oauth:grant-type:device_code'

/** The client metadata (oidc-provider's `extraClientMetadata`) holding the API scopes it may ask for. */
export const API_SCOPES_METADATA = 'api_scopes'

export const listOf = (json: string): string[] => JSON.parse(json) as string[]

/**
 * A registered client as oidc-provider reads it. A confidential one authenticates with its
 * secret in HTTP Basic (RFC 6749's must) or the body, `client_secret` being the kept hash
 * (provider.ts compares against it); a public one with none, and PKCE binds its code instead.
 */
export function clientMetadata(client: OAuthClient): ClientMetadata {
  const grantTypes = listOf(client.grantTypes)
  const scopes = listOf(client.scopes)
  const openid = OPENID_SCOPES.filter((scope) => scopes.includes(scope))
  return {
    client_id: client.clientId,
    client_name: client.name,
    ...(client.confidential && client.secretHash
      ? { client_secret: client.secretHash, token_endpoint_auth_method: 'client_secret_basic' }
      : { token_endpoint_auth_method: 'none' }),
    redirect_uris: listOf(client.redirectUris),
    grant_types: grantTypes,
    response_types: grantTypes.includes('authorization_code') ? ['code'] : [],
    // The OpenID scopes are the provider's; the API's are its resource's (provider.ts getResourceServerInfo reads them here).
    ...(openid.length ? { scope: openid.join(' ') } : {}),
    [API_SCOPES_METADATA]: API_SCOPES.filter((scope) => scopes.includes(scope)).join(' '),
  }
}
