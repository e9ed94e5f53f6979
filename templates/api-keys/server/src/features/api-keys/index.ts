import { defineFeature } from '../../kernel/index.js'
import { apiKeyAuthenticator } from './authenticator.js'
import { config } from './config.js'
import { apiKeyEvents } from './events.js'
import { de } from './messages/de.js'
import { en } from './messages/en.js'
import * as createApiKeys from './migrations/0001-create-api-keys.js'
import { ApiKey } from './models/api-key.js'
import { apiKeyAccountRoutes } from './routes.js'

/**
 * API keys: personal keys with scopes (`read`, `write`, `admin`) that scripts and servers send as
 * `Authorization: Bearer cca_<id>_<secret>`, made behind step-up under /api/account/api-keys and
 * revoked there, or all at once by every event that signs the user out everywhere.
 */
export const feature = defineFeature({
  name: 'api-keys',
  messages: { en, de },
  config,
  models: { models: [ApiKey] },
  // Released migrations keep their names: the database records them by name.
  migrations: [{ name: 'api-keys-0001-create-api-keys', ...createApiKeys }],
  openapi: async () => (await import('./openapi.js')).routeDocs,
  routes: {
    account: (router, ctx, passwordChecked) => router.use('/api-keys', apiKeyAccountRoutes(ctx, passwordChecked)),
  },
  authenticators: [apiKeyAuthenticator],
  credentialTokens: [
    // A standing credential, yet voided (stamped, its row kept) by every event that ends all the
    // user's sessions (a password change or reset, sign out everywhere, a deletion), not by one
    // sign-out; `sessionsChanged` then drops the keys from every instance's cache.
    { model: ApiKey, grants: 'sign-in', pending: true, voidColumn: 'revokedAt', voidedBy: 'wide' },
  ],
  events: apiKeyEvents,
})
