import { defineFeature } from '../../kernel/index.js'
import { oauthEvents } from './events.js'
import { config } from './config.js'
import { migrations } from './migration-list.js'
import { OAuthAccount } from './models/oauth-account.js'
import { OAuthFlow } from './models/oauth-flow.js'
import { connectionRoutes, oauthSignInRoutes, providerConfirmRoutes } from './routes.js'
import { findProvider } from './services/provider-registry.js'
import { de } from './messages/de.js'
import { en } from './messages/en.js'
import { after } from './order.js'

/** Social sign-in through the providers chosen (their layers' provider files and config). */
export const feature = defineFeature({
  name: 'oauth',
  after,
  messages: { en, de },
  config,
  models: { models: [OAuthAccount, OAuthFlow] },
  migrations,
  openapi: async () => (await import('./openapi.js')).routeDocs,
  routes: {
    auth: (router, ctx) => router.use('/oauth', oauthSignInRoutes(ctx)),
    account: (router, ctx) => router.use('/connections', connectionRoutes(ctx)),
  },
  // A provider sign-in or link under way.
  credentialTokens: [{ model: OAuthFlow, grants: 'sign-in', pending: true }],
  signInMethods: [{ name: 'provider', count: (userId, transaction) => OAuthAccount.count({ where: { userId }, transaction }) }],
  confirmMethods: [
    {
      // The linked providers this app still offers: a round trip through one confirms it is you.
      offered: async (userId, ctx) =>
        (await OAuthAccount.findAll({ attributes: ['provider'], where: { userId }, order: [['provider', 'ASC']] }))
          .filter((account) => findProvider(ctx, account.provider))
          .map((account) => `provider:${account.provider}`),
      routes: (router, ctx) => router.use('/confirm/provider', providerConfirmRoutes(ctx)),
    },
  ],
  events: oauthEvents,
})
