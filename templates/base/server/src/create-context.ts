import type { Sequelize } from 'sequelize'
import { createAppSettings, type AppSettingsOptions } from './kernel/config/settings.js'
import type { AppContext, AppFeatures } from './kernel/context.js'
import { connectDatabase, createSequelize } from './kernel/db/database.js'
import { features as generatedFeatures } from './features/index.js'
import { orderFeatures } from './kernel/feature-order.js'
import { createJobHandlers } from './kernel/jobs/handlers.js'
import { InProcessQueue } from './kernel/jobs/in-process-queue.js'
import { defaultRetryPolicy, webhookRetryPolicy, type JobQueue, type RetryPolicies, type RetryPolicy } from './kernel/jobs/types.js'
import { createLogger, type Logger } from './kernel/logger.js'
import { createMailer } from './kernel/mail/mailer.js'
import { initModels } from './kernel/models/index.js'
import { paths } from './kernel/paths.js'
import { AuthCache, defaultAuthCacheSettings, type AuthCacheSettings } from './kernel/auth/auth-cache.js'
import { warmUpPasswords } from './kernel/auth/passwords.js'
import { createTokenKeys } from './kernel/auth/token-keys.js'
import { DisabledSessionStore, RedisSessionStore, type SessionStore } from './kernel/guest-store/store.js'
import { bindMessages } from './kernel/i18n/translate.js'
import { AddressGuard, type Resolver } from './kernel/webhooks/address-guard.js'
import { WebhookCatalogue } from './kernel/webhooks/catalogue.js'
import { webhookBreakerPolicy, type BreakerPolicy } from './kernel/webhooks/breaker.js'
import { WebhookHub } from './kernel/webhooks/hub.js'

export interface AppContextOptions extends Omit<AppSettingsOptions, 'features'> {
  /** The feature layers (default: the ones this app was generated with, features/index.ts), put in their `after` order. */
  features?: AppFeatures
  /** An open connection to reuse; otherwise one is opened from DATABASE_URL (and closed by close()). */
  sequelize?: Sequelize
  /** Run queued jobs in this process (the default); false leaves them to `npm run worker`. */
  worker?: boolean
  logger?: Logger
  retry?: RetryPolicy
  /** Webhook deliveries' retries (default: about a day of them, kernel/jobs/types.ts). */
  webhookRetry?: RetryPolicy
  /** How webhook hosts are resolved (default: the system's DNS); tests hand in their own names. */
  webhookResolver?: Resolver
  /** When a failing webhook endpoint is paused (default: kernel/webhooks/breaker.ts); a test shortens the pause. */
  webhookBreaker?: BreakerPolicy
  authCache?: Partial<AuthCacheSettings>
  mailDir?: string
}

/** The settings, and the services built from them: everything `createApp` needs, once at start-up (or per test with overrides). */
export async function createAppContext(options: AppContextOptions): Promise<AppContext> {
  const features = orderFeatures(options.features ?? generatedFeatures)
  const settings = createAppSettings({ ...options, features })
  const { env, auth, keyPrefix } = settings
  const logger = options.logger ?? createLogger(env.NODE_ENV)

  const ownsDatabase = !options.sequelize
  const sequelize = options.sequelize ?? createSequelize(env.DATABASE_URL)
  if (ownsDatabase) await connectDatabase(sequelize)
  initModels(sequelize, features)
  bindMessages(features)

  // ioredis and BullMQ are loaded only when Redis is configured: about 30 MB of a process without it.
  const redisModule = env.REDIS_URL ? await import('./kernel/redis.js') : null
  const redis = redisModule ? redisModule.createRedis(env.REDIS_URL!, logger) : null
  if (redisModule && redis) await redisModule.redisReady(redis)
  const mailer = createMailer({ smtpUrl: env.MAIL_TRANSPORT === 'smtp' ? env.SMTP_URL : undefined, from: env.MAIL_FROM, mailDir: options.mailDir ?? paths.mail, logger })
  const authCache = new AuthCache(redis, keyPrefix, logger, { ...defaultAuthCacheSettings, ...options.authCache })
  const webhookRetry = options.webhookRetry ?? webhookRetryPolicy
  const guard = new AddressGuard({ allowPrivate: env.WEBHOOK_ALLOW_PRIVATE, allowHttp: env.NODE_ENV !== 'production' }, options.webhookResolver)
  // The hub queues through the queue made below, which runs the handlers made with the hub.
  const webhooks = new WebhookHub({ dispatch: (name, data, transaction) => queue.dispatch(name, data, transaction) }, new WebhookCatalogue(features), guard)
  const jobHandlers = createJobHandlers({ env, auth, mailer, authCache, features, logger, webhooks, webhookRetry, webhookBreaker: options.webhookBreaker ?? webhookBreakerPolicy }, features)
  const retry: RetryPolicies = { default: options.retry ?? defaultRetryPolicy, 'webhook:deliver': webhookRetry }
  const queue: JobQueue = env.REDIS_URL
    ? new (await import('./kernel/jobs/redis-queue.js')).RedisQueue({ url: env.REDIS_URL, prefix: `${keyPrefix}bull`, queue: keyPrefix, handlers: jobHandlers, retry, worker: options.worker ?? true, logger })
    : new InProcessQueue(keyPrefix, jobHandlers, retry, logger)
  const sessions: SessionStore = redis ? new RedisSessionStore(redis, keyPrefix) : new DisabledSessionStore()
  // Security events are kept 90 days: the instances that run jobs queue their pruning every hour.
  const pruning = (options.worker ?? true) ? setInterval(() => void queue.dispatch('security:prune-events', {}).catch(() => {}), 3600_000).unref() : undefined

  await warmUpPasswords()

  return {
    ...settings,
    features,
    keys: createTokenKeys(env),
    sequelize,
    redis,
    queue,
    jobHandlers,
    sessions,
    authCache,
    mailer,
    logger,
    webhooks,
    async close() {
      clearInterval(pruning)
      await queue.close()
      await authCache.close()
      mailer.close()
      // QUIT needs a live connection; while Redis is down it would only wait for one.
      if (redis?.status === 'ready') await redis.quit().catch(() => redis.disconnect())
      else redis?.disconnect()
      if (ownsDatabase) await sequelize.close()
    },
  }
}
