/** What a team's IdP is told about the app (the SAML service provider): one entity per team. */
export interface ServiceProvider {
  entity_id: string
  acs_url: string
  metadata_url: string
}

/** The team's SP values, under the app's public URL: the metadata URL is the entity id, as IdPs expect. */
export function serviceProvider(baseUrl: string, teamId: number): ServiceProvider {
  const root = `${baseUrl}/api/auth/sso/saml/${teamId}`
  return { entity_id: `${root}/metadata`, acs_url: `${root}/acs`, metadata_url: `${root}/metadata` }
}
