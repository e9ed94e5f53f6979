/** What a team's IdP is told about the app (the SAML service provider, the OpenID relying party): one per team. */
export interface ServiceProvider {
  entity_id: string
  acs_url: string
  metadata_url: string
  /** The OpenID redirect URI, registered with the IdP exactly as written. */
  redirect_uri: string
}

/** Where the team's OpenID provider sends the browser back. */
export const oidcRedirectUri = (baseUrl: string, teamId: number) => `${baseUrl}/api/auth/sso/oidc/${teamId}/callback`

/** The team's SP values, under the app's public URL: the metadata URL is the entity id, as IdPs expect. */
export function serviceProvider(baseUrl: string, teamId: number): ServiceProvider {
  const root = `${baseUrl}/api/auth/sso/saml/${teamId}`
  return { entity_id: `${root}/metadata`, acs_url: `${root}/acs`, metadata_url: `${root}/metadata`, redirect_uri: oidcRedirectUri(baseUrl, teamId) }
}
