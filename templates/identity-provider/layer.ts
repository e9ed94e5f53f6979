// The OAuth 2.1 / OpenID provider layer's row of the options table (src/options.ts assembles it).
// Read by the generator only: never copied into an app. The folder is not `oauth-provider`:
// `oauth-<value>` folders are the values of `--oauth` (templates/README.md).
import { defineOption } from '../../src/option-row.js'

declare module '../../src/option-row.js' {
  interface LayerAnswers {
    oauthProvider: boolean
  }
}

export default defineOption({
  key: 'oauthProvider',
  flag: '--oauth-provider',
  description: 'be an OAuth 2.1 / OpenID provider: your CLIs, other apps and agents sign in with this app (oidc-provider under /oauth2)',
  negated: 'do not be an OAuth 2.1 / OpenID provider: only this app signs people in to itself',
  prompt: 'Be an OAuth 2.1 / OpenID provider (CLIs, apps, agents)?',
  default: () => false,
  contractDefault: 'no',
  layer: 'identity-provider',
  matrix: { tag: 'provider' },
  // Its standards, paths and settings are OAuth's: `/.well-known/oauth-authorization-server`, `OAUTH_PROVIDER_REGISTRATION`.
  speaks: ['oauth'],
  readme:
    "the OAuth 2.1 / OpenID provider layer (`templates/identity-provider/`): panva's `oidc-provider` under `/oauth2` (issuer `{BASE_URL}/oauth2`, discovery, JWKS, authorization code with PKCE S256 for every client, rotated refresh tokens whose reuse revokes the grant, client credentials, the device flow with its `/device` page, revocation, introspection, userinfo), its login and consent in the app's own pages (`/oauth2/authorize`), signing keys in the database sealed with `ENCRYPTION_KEY` and rotated by `oauth-provider:rotate-keys`, clients registered by admins (`/admin/oauth-clients`, secrets shown once and stored hashed), each person's connected apps (`/settings/connected-apps`), dynamic client registration (RFC 7591) with `OAUTH_PROVIDER_REGISTRATION=open`, and the API as a protected resource (RFC 9728) accepting its JWT access tokens with their `read` and `write` scopes",
})
