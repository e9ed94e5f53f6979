import { defineFeature, envOf, sentAsThemselves } from '../../kernel/index.js'
import { accessTokenAuthenticator } from './authenticator.js'
import { config } from './config.js'
import { de } from './messages/de.js'
import { en } from './messages/en.js'
import * as createOidcPayloads from './migrations/0001-create-oidc-payloads.js'
import * as createSigningKeys from './migrations/0002-create-oauth-signing-keys.js'
import * as createClients from './migrations/0003-create-oauth-clients.js'
import * as addDynamicClients from './migrations/0004-add-dynamic-clients.js'
import { OAuthClient } from './models/oauth-client.js'
import { OidcPayload } from './models/oidc-payload.js'
import { SigningKey } from './models/signing-key.js'
import { oauthProviderEvents } from './events.js'
import { clientRoutes, connectedAppRoutes, interactionRoutes, mountProvider } from './routes.js'
import { rotateSigningKeys } from './services/signing-keys.js'

/**
 * The app as an OAuth 2.1 / OpenID provider: oidc-provider under /oauth2, its sign-in and consent
 * in the app's own pages, its storage in the app's database, and the app's API a protected
 * resource that accepts the access tokens it issues for it.
 */
export const feature = defineFeature({
  name: 'identity-provider',
  messages: { en, de },
  config,
  models: { models: [OidcPayload, SigningKey, OAuthClient] },
  // Released migrations keep their names: the database records them by name.
  migrations: [
    { name: 'identity-provider-0001-create-oidc-payloads', ...createOidcPayloads },
    { name: 'identity-provider-0002-create-oauth-signing-keys', ...createSigningKeys },
    { name: 'identity-provider-0003-create-oauth-clients', ...createClients },
    { name: 'identity-provider-0004-add-dynamic-clients', ...addDynamicClients },
  ],
  openapi: async () => (await import('./openapi.js')).routeDocs,
  routes: {
    root: mountProvider,
    api(router, ctx) {
      router.use('/oauth2', interactionRoutes(ctx))
      router.use('/admin/oauth-clients', clientRoutes(ctx))
    },
    account: (router, ctx) => router.use('/connected-apps', connectedAppRoutes(ctx)),
    // Consent and clients are the person's and the admins' own doing: no token acts there.
    sessionOnly: ['/api/oauth2', '/api/admin/oauth-clients'],
  },
  authenticators: [accessTokenAuthenticator],
  credentialTokens: [
    // Grants, codes, refresh tokens and the provider's sessions of a person: every event that
    // ends all their sessions (a password change or reset, sign out everywhere, a deletion) ends these.
    { model: OidcPayload, grants: 'sign-in', pending: true, voidedBy: 'wide' },
    // A confidential client's secret: changed by its admins alone (a new one, a deletion).
    { model: OAuthClient, grants: 'sign-in', pending: false },
  ],
  events: oauthProviderEvents,
  webhookEvents: sentAsThemselves(oauthProviderEvents),
  commands: {
    'oauth-provider:rotate-keys': (ctx) => rotateSigningKeys(envOf(config, ctx.env).ENCRYPTION_KEY),
  },
})
