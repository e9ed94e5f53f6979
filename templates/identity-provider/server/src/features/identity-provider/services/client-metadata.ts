import type { ClientMetadata } from 'oidc-provider'
import type { OAuthClient } from '../models/oauth-client.js'

export type GrantType = 'authorization_code' | 'refresh_token' | 'client_credentials'

export const listOf = (json: string): string[] => JSON.parse(json) as string[]

/**
 * A registered client as oidc-provider reads it. A confidential one authenticates with its
 * secret in HTTP Basic (RFC 6749's must) or the body, `client_secret` being the kept hash
 * (provider.ts compares against it); a public one with none, and PKCE binds its code instead.
 */
export function clientMetadata(client: OAuthClient): ClientMetadata {
  const grantTypes = listOf(client.grantTypes)
  return {
    client_id: client.clientId,
    client_name: client.name,
    ...(client.confidential && client.secretHash
      ? { client_secret: client.secretHash, token_endpoint_auth_method: 'client_secret_basic' }
      : { token_endpoint_auth_method: 'none' }),
    redirect_uris: listOf(client.redirectUris),
    grant_types: grantTypes,
    response_types: grantTypes.includes('authorization_code') ? ['code'] : [],
    scope: listOf(client.scopes).join(' '),
  }
}
