import type { Configuration, TokenEndpointResponse, TokenEndpointResponseHelpers } from 'openid-client'

/** Who a provider says signed in. */
export interface ProviderProfile {
  /** The provider's stable id of its user. */
  subject: string
  email: string | null
  /** Whether the provider vouches that the user owns `email`. */
  emailVerified: boolean
  name: string | null
}

export type ProviderTokens = TokenEndpointResponse & TokenEndpointResponseHelpers

/** What differs between providers; the flow around them is one (services/). */
export interface OAuthProviderSetup {
  /** In URLs (`/api/auth/oauth/<id>`) and in `oauth_accounts.provider`. */
  id: string
  /** What the buttons say. */
  name: string
  /** OpenID Connect: an ID token is expected, with the flow's `nonce`. */
  openid: boolean
  scope: string
  /** The client configuration (a discovery, for OpenID providers): made once per process. */
  configuration(): Promise<Configuration>
  /** After the code exchange: who it was, from the ID token or the provider's API. */
  profile(config: Configuration, tokens: ProviderTokens): Promise<ProviderProfile>
}
