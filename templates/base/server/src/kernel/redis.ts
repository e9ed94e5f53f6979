import { Redis } from 'ioredis'
import type { Logger } from './logger.js'

/** Longest a Redis command may take before the request gives up on it (503, or a fallback). */
const COMMAND_TIMEOUT_MS = 1000

/**
 * The shared client for sessions, rate limits, the authentication cache and health. While Redis
 * is unreachable commands fail at once (no offline queue) instead of waiting through the
 * reconnect backoff, so nothing holds a request for long; reconnect attempts come every 100 ms
 * to 1 s, so everything works again within about a second of Redis's return.
 */
export function createRedis(url: string, logger: Logger): Redis {
  const redis = new Redis(url, {
    enableOfflineQueue: false,
    maxRetriesPerRequest: 1,
    connectTimeout: COMMAND_TIMEOUT_MS,
    commandTimeout: COMMAND_TIMEOUT_MS,
    retryStrategy: (attempt) => Math.min(attempt * 100, 1000),
  })
  let reported = false
  redis.on('error', (error) => {
    if (!reported) logger.warn(`Redis: ${error.message}`)
    reported = true
  })
  redis.on('ready', () => {
    if (reported) logger.info('Redis: connected again')
    reported = false
  })
  return redis
}

/** Waits for the first connection, at most `ms`: the app starts (and reports Redis in health) either way. */
export function redisReady(redis: Redis, ms = 1500): Promise<void> {
  if (redis.status === 'ready') return Promise.resolve()
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer)
      redis.off('ready', done)
      resolve()
    }
    const timer = setTimeout(done, ms)
    redis.once('ready', done)
  })
}
