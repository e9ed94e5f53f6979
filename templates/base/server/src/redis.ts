import { Redis } from 'ioredis'
import type { Logger } from './logger.js'

/**
 * The shared client for sessions, rate limits and health. Commands fail after a few retries
 * while Redis is down instead of queueing forever, so requests end instead of hanging.
 */
export function createRedis(url: string, logger: Logger): Redis {
  const redis = new Redis(url, { maxRetriesPerRequest: 2, connectTimeout: 5000 })
  let reported = false
  redis.on('error', (error) => {
    if (!reported) logger.warn(`Redis: ${error.message}`)
    reported = true
  })
  redis.on('ready', () => {
    reported = false
  })
  return redis
}
