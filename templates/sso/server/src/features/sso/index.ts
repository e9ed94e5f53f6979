import { defineFeature } from '../../kernel/index.js'
import { config } from './config.js'
import { ssoEvents, ssoWebhookEvents } from './events.js'
import { de } from './messages/de.js'
import { en } from './messages/en.js'
import * as createDomains from './migrations/0001-create-sso-domains.js'
import * as createConnections from './migrations/0002-create-sso-connections.js'
import * as createSamlIds from './migrations/0003-create-sso-saml-ids.js'
import * as createScimTokens from './migrations/0004-create-sso-scim-tokens.js'
import * as createTeamAccounts from './migrations/0005-create-sso-team-accounts.js'
import { SamlId } from './models/saml-id.js'
import { ScimToken } from './models/scim-token.js'
import { SsoConnection } from './models/sso-connection.js'
import { SsoDomain } from './models/sso-domain.js'
import { SsoTeamAccount } from './models/sso-team-account.js'
import { SAML_ACS_PATH, ssoAuthRoutes, ssoTeamRoutes } from './routes.js'
import { SCIM_PATH, scimTokenAuthenticator } from './scim/auth.js'
import { scimRouter } from './scim/router.js'
import { requireSso } from './services/require-sso.js'

/**
 * Enterprise SSO for teams: a team's owners claim their company's domains (proved by a DNS TXT
 * record) and connect the team's SAML or OpenID identity provider, through which the addresses of those
 * domains then sign in ("Continue with SSO"), a new one joining the team just in time; a team may
 * require it of its domains' addresses, its owners excepted. Its IdP may also provision the team's
 * people through SCIM 2.0 (/scim/v2, a team token), and deprovision them.
 */
export const feature = defineFeature({
  name: 'sso',
  messages: { en, de },
  config,
  models: { models: [SsoDomain, SsoConnection, SamlId, ScimToken, SsoTeamAccount] },
  // Released migrations keep their names: the database records them by name.
  migrations: [
    { name: 'sso-0001-create-sso-domains', ...createDomains },
    { name: 'sso-0002-create-sso-connections', ...createConnections },
    { name: 'sso-0003-create-sso-saml-ids', ...createSamlIds },
    { name: 'sso-0004-create-sso-scim-tokens', ...createScimTokens },
    { name: 'sso-0005-create-sso-team-accounts', ...createTeamAccounts },
  ],
  openapi: async () => (await import('./openapi.js')).routeDocs,
  routes: {
    auth: ssoAuthRoutes,
    api: (router, ctx) => void router.use('/teams/:id', ssoTeamRoutes(ctx)),
    sessionOnly: ['/api/teams/:id/sso', '/api/teams/:id/domains', '/api/teams/:id/scim-tokens'],
    // SCIM at the app's root, as IdPs expect it (`{BASE_URL}/scim/v2`), with its own token and errors.
    root: (app, ctx) => void app.use(SCIM_PATH, scimRouter(ctx)),
    formPosts: [SAML_ACS_PATH],
  },
  credentialTokens: [
    // A team's standing credential, no person's: no event of a user voids it, only its owners'
    // revocation (or the team's deletion) ends it.
    { model: ScimToken, grants: 'credential', pending: false },
  ],
  authenticators: [scimTokenAuthenticator],
  signInRefusal: requireSso,
  events: ssoEvents,
  webhookEvents: ssoWebhookEvents,
})
