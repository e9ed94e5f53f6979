import type { Redis } from 'ioredis'
import type { Sequelize } from 'sequelize'
import { authConfig as renderedAuthConfig, type AuthConfig } from './config/auth.js'
import type { Env } from './config/env.js'
import { defaultRateLimits, type RateLimitSettings } from './config/rate-limits.js'
import { connectDatabase, createSequelize } from './db/database.js'
import { createJobHandlers } from './jobs/handlers.js'
import { InProcessQueue } from './jobs/in-process-queue.js'
import { defaultRetryPolicy, type JobHandlers, type JobQueue, type RetryPolicy } from './jobs/types.js'
import { createLogger, type Logger } from './logger.js'
import { createMailer, type Mailer } from './mail/mailer.js'
import { initModels } from './models/index.js'
import { paths } from './paths.js'
import { AuthCache, defaultAuthCacheSettings, type AuthCacheSettings } from './services/auth-cache.js'
import { warmUpPasswords } from './services/passwords.js'
import { createTokenKeys, type TokenKeys } from './services/token-keys.js'
import { DisabledSessionStore, RedisSessionStore, type SessionStore } from './session/store.js'

/** Everything `createApp` needs, built once at start-up (or per test with overrides). */
export interface AppConfig {
  env: Env
  auth: AuthConfig
  keys: TokenKeys
  sequelize: Sequelize
  redis: Redis | null
  /** Namespace of every Redis key of this app: sessions, rate limits, jobs. */
  keyPrefix: string
  queue: JobQueue
  jobHandlers: JobHandlers
  sessions: SessionStore
  /** Users and refresh tokens as authentication reads them on every request. */
  authCache: AuthCache
  mailer: Mailer
  logger: Logger
  rateLimits: RateLimitSettings
  /** Built client served by the production server. */
  clientDir: string
  close(): Promise<void>
}

export interface AppConfigOptions {
  env: Env
  auth?: Partial<AuthConfig>
  /** An open connection to reuse; otherwise one is opened from DATABASE_URL (and closed by close()). */
  sequelize?: Sequelize
  /** Run queued jobs in this process (the default); false leaves them to `npm run worker`. */
  worker?: boolean
  keyPrefix?: string
  logger?: Logger
  retry?: RetryPolicy
  rateLimits?: Partial<RateLimitSettings>
  authCache?: Partial<AuthCacheSettings>
  mailDir?: string
  clientDir?: string
}

export async function createAppConfig(options: AppConfigOptions): Promise<AppConfig> {
  const { env } = options
  const logger = options.logger ?? createLogger(env.NODE_ENV)
  const auth = { ...renderedAuthConfig, ...options.auth }
  const keyPrefix = options.keyPrefix ?? env.REDIS_PREFIX ?? `${auth.name}:`

  const ownsDatabase = !options.sequelize
  const sequelize = options.sequelize ?? createSequelize(env.DATABASE_URL)
  if (ownsDatabase) await connectDatabase(sequelize)
  initModels(sequelize)

  // ioredis and BullMQ are loaded only when Redis is configured: about 30 MB of a process without it.
  const redisModule = env.REDIS_URL ? await import('./redis.js') : null
  const redis = redisModule ? redisModule.createRedis(env.REDIS_URL!, logger) : null
  if (redisModule && redis) await redisModule.redisReady(redis)
  const mailer = createMailer({ smtpUrl: env.MAIL_TRANSPORT === 'smtp' ? env.SMTP_URL : undefined, from: env.MAIL_FROM, mailDir: options.mailDir ?? paths.mail, logger })
  const authCache = new AuthCache(redis, keyPrefix, logger, { ...defaultAuthCacheSettings, ...options.authCache })
  const jobHandlers = createJobHandlers({ env, auth, mailer, authCache })
  const retry = options.retry ?? defaultRetryPolicy
  const queue: JobQueue = env.REDIS_URL
    ? new (await import('./jobs/redis-queue.js')).RedisQueue({ url: env.REDIS_URL, prefix: `${keyPrefix}bull`, queue: keyPrefix, handlers: jobHandlers, retry, worker: options.worker ?? true, logger })
    : new InProcessQueue(keyPrefix, jobHandlers, retry, logger)
  const sessions: SessionStore = redis ? new RedisSessionStore(redis, keyPrefix) : new DisabledSessionStore()
  // Security events are kept 90 days: the instances that run jobs queue their pruning every hour.
  const pruning = (options.worker ?? true) ? setInterval(() => void queue.dispatch('security:prune-events', {}).catch(() => {}), 3600_000).unref() : undefined

  await warmUpPasswords()

  return {
    env,
    auth,
    keys: createTokenKeys(env),
    sequelize,
    redis,
    keyPrefix,
    queue,
    jobHandlers,
    sessions,
    authCache,
    mailer,
    logger,
    rateLimits: { ...defaultRateLimits, ...options.rateLimits },
    clientDir: options.clientDir ?? paths.client,
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
