import { defineFeature } from '../../kernel/index.js'
import { config } from './config.js'
import { ssoEvents, ssoWebhookEvents } from './events.js'
import { de } from './messages/de.js'
import { en } from './messages/en.js'
import * as createDomains from './migrations/0001-create-sso-domains.js'
import * as createConnections from './migrations/0002-create-sso-connections.js'
import * as createSamlIds from './migrations/0003-create-sso-saml-ids.js'
import { SamlId } from './models/saml-id.js'
import { SsoConnection } from './models/sso-connection.js'
import { SsoDomain } from './models/sso-domain.js'
import { SAML_ACS_PATH, ssoAuthRoutes, ssoTeamRoutes } from './routes.js'
import { requireSso } from './services/require-sso.js'

/**
 * Enterprise SSO for teams: a team's owners claim their company's domains (proved by a DNS TXT
 * record) and connect the team's SAML or OpenID identity provider, through which the addresses of those
 * domains then sign in ("Continue with SSO"), a new one joining the team just in time; a team may
 * require it of its domains' addresses, its owners excepted.
 */
export const feature = defineFeature({
  name: 'sso',
  messages: { en, de },
  config,
  models: { models: [SsoDomain, SsoConnection, SamlId] },
  // Released migrations keep their names: the database records them by name.
  migrations: [
    { name: 'sso-0001-create-sso-domains', ...createDomains },
    { name: 'sso-0002-create-sso-connections', ...createConnections },
    { name: 'sso-0003-create-sso-saml-ids', ...createSamlIds },
  ],
  openapi: async () => (await import('./openapi.js')).routeDocs,
  routes: {
    auth: ssoAuthRoutes,
    api: (router, ctx) => void router.use('/teams/:id', ssoTeamRoutes(ctx)),
    sessionOnly: ['/api/teams/:id/sso', '/api/teams/:id/domains'],
    formPosts: [SAML_ACS_PATH],
  },
  signInRefusal: requireSso,
  events: ssoEvents,
  webhookEvents: ssoWebhookEvents,
})
