// What the server's handlers are given: the app's settings and its live services, side by side.
// Declarations only; createAppContext (create-context.ts) builds them. No import cycle runs
// through here: what this module imports, directly or not (the auth cache and its loaders, the
// job types, the mailer…), never imports it back, and takes the pieces it uses typed from their
// own modules (`{ authCache: Pick<AuthCache, 'userChanged'> }`), not a context.
import type { Redis } from 'ioredis'
import type { Sequelize } from 'sequelize'
import type { AppSettings } from './config/settings.js'
import type { ServerFeature } from './feature.js'
import type { JobDeps, JobHandlers, JobQueue } from './jobs/types.js'
import type { Logger } from './logger.js'
import type { Mailer } from './mail/mailer.js'
import type { AuthCache } from './auth/auth-cache.js'
import type { TokenKeys } from './auth/token-keys.js'
import type { SessionStore } from './guest-store/store.js'
import type { WebhookHub } from './webhooks/hub.js'

export type { AppSettings } from './config/settings.js'

/** The live clients, built once at start-up from the settings (or per test); `close()` releases them. */
export interface AppServices {
  keys: TokenKeys
  /**
   * The connection's owner's handle: opened (or adopted) and closed by the context, probed by
   * /health. Queries reach the database through the models bound to it (kernel/db/database.ts).
   */
  sequelize: Sequelize
  redis: Redis | null
  queue: JobQueue
  jobHandlers: JobHandlers
  sessions: SessionStore
  /** Users and refresh tokens as authentication reads them on every request. */
  authCache: AuthCache
  mailer: Mailer
  logger: Logger
  /** Which events endpoints take, and the messages an event makes (kernel/webhooks/hub.ts). */
  webhooks: WebhookHub
  close(): Promise<void>
}

/**
 * What `createApp`, the routes, the middleware and the controllers take (`ctx`): settings and
 * services flat, so a function asks for exactly what it reads (`Pick<AppContext, 'env' | 'keys'>`).
 */
export interface AppContext extends AppSettings, AppServices {
  /** The feature layers, in order (features/index.ts): what base reads at each extension point. */
  features: AppFeatures
}

/** A feature layer of this app (features/<layer>/index.ts exports one, through `defineFeature`). */
export type AppFeature = ServerFeature<AppContext, JobDeps>
export type AppFeatures = readonly AppFeature[]
