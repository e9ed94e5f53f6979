import { envOf, type Env } from '../../../../kernel/index.js'
import { config as oidcConfig } from './oidc-config.js'
import { openIdProvider } from '../openid-provider.js'

/** Any OpenID Connect provider (Keycloak, Auth0, Okta, Entra ID, …), by discovery at `OAUTH_OIDC_ISSUER`. */
export function oidcProvider(env: Env) {
  const settings = envOf(oidcConfig, env).OAUTH_OIDC
  return settings ? openIdProvider('oidc', settings.name, settings) : null
}
