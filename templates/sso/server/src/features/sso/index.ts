import { defineFeature } from '../../kernel/index.js'
import { config } from './config.js'
import { ssoEvents, ssoWebhookEvents } from './events.js'
import { de } from './messages/de.js'
import { en } from './messages/en.js'
import * as createDomains from './migrations/0001-create-sso-domains.js'
import * as createConnections from './migrations/0002-create-sso-connections.js'
import { SsoConnection } from './models/sso-connection.js'
import { SsoDomain } from './models/sso-domain.js'
import { ssoTeamRoutes } from './routes.js'

/**
 * Enterprise SSO for teams: a team's owners claim their company's domains (proved by a DNS TXT
 * record) and connect the team's identity provider, through which the addresses of those domains
 * then sign in.
 */
export const feature = defineFeature({
  name: 'sso',
  messages: { en, de },
  config,
  models: { models: [SsoDomain, SsoConnection] },
  // Released migrations keep their names: the database records them by name.
  migrations: [
    { name: 'sso-0001-create-sso-domains', ...createDomains },
    { name: 'sso-0002-create-sso-connections', ...createConnections },
  ],
  openapi: async () => (await import('./openapi.js')).routeDocs,
  routes: {
    api: (router, ctx) => void router.use('/teams/:id', ssoTeamRoutes(ctx)),
    sessionOnly: ['/api/teams/:id/sso', '/api/teams/:id/domains'],
  },
  events: ssoEvents,
  webhookEvents: ssoWebhookEvents,
})
