import type { Env } from '../../../../kernel/index.js'
import { openIdProvider } from '../openid-provider.js'

/** Any OpenID Connect provider (Keycloak, Auth0, Okta, Entra ID, …), by discovery at `OAUTH_OIDC_ISSUER`. */
export const oidcProvider = (env: Env) => (env.OAUTH_OIDC ? openIdProvider('oidc', env.OAUTH_OIDC.name, env.OAUTH_OIDC) : null)
