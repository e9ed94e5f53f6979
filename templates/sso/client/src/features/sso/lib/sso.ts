/** The API's answer for a team's SSO (`GET /api/teams/:id/sso`). */
export interface SsoDomain {
  domain: string
  verified: boolean
  txt_name: string
  txt_value: string
}

export type SsoConnection = { default_role: 'member' | 'admin'; require_sso: boolean } & (
  | { type: 'saml'; idp_entity_id: string; sso_url: string; allow_idp_initiated: boolean }
  | { type: 'oidc'; issuer: string; client_id: string }
)

export interface TeamSso {
  connection: SsoConnection | null
  sp: { entity_id: string; acs_url: string; metadata_url: string; redirect_uri: string }
  domains: SsoDomain[]
}

export const ssoPath = (teamId: number) => `/api/teams/${teamId}/sso`
export const domainsPath = (teamId: number) => `/api/teams/${teamId}/domains`
export const verifyPath = (teamId: number, domain: string) => `${domainsPath(teamId)}/${encodeURIComponent(domain)}/verify`

/** A team's SCIM token as listed (`GET /api/teams/:id/scim-tokens`): never the token itself. */
export interface ScimToken {
  id: number
  prefix: string
  created_at: string
  last_used_at: string | null
}

export const scimTokensPath = (teamId: number) => `/api/teams/${teamId}/scim-tokens`
export const scimTokenPath = (teamId: number, tokenId: number) => `${scimTokensPath(teamId)}/${tokenId}`
/** The base URL an IdP is given for SCIM: the app's own origin, `/scim/v2`. */
export const scimBaseUrl = () => `${window.location.origin}/scim/v2`
