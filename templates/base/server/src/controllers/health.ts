import type { RequestHandler } from 'express'
import type { AppConfig } from '../context.js'

const within = <T>(ms: number, promise: Promise<T>) =>
  Promise.race([promise, new Promise<never>((_, reject) => setTimeout(() => reject(new Error('timeout')), ms).unref())])

/** 200 when every configured dependency answers, 503 otherwise; never a detail of the failure. */
export function health(config: AppConfig): RequestHandler {
  return async (_req, res) => {
    const db = await within(2000, config.sequelize.query('SELECT 1')).then(
      () => 'ok' as const,
      () => 'error' as const,
    )
    const redis = config.redis
      ? await within(2000, config.redis.ping()).then(
          () => 'ok' as const,
          () => 'error' as const,
        )
      : ('disabled' as const)
    const healthy = db === 'ok' && redis !== 'error'
    res.status(healthy ? 200 : 503).json({ status: healthy ? 'ok' : 'error', db, redis })
  }
}
