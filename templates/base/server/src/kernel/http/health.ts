import type { RequestHandler } from 'express'
import type { AppContext } from '../context.js'

/** Longest a probe may take: both run at once, so health answers within it (the 2 s budget of a dead dependency). */
const PROBE_MS = 1500

type Probe = 'ok' | 'error'

/** `ok` once the dependency answers within the bound, however slowly; `error` if it fails or stays silent. */
const probe = (check: () => Promise<unknown>): Promise<Probe> =>
  new Promise((resolve) => {
    const timer = setTimeout(() => resolve('error'), PROBE_MS)
    timer.unref()
    check().then(
      () => resolve('ok'),
      () => resolve('error'),
    ).finally(() => clearTimeout(timer))
  })

/** 200 when every configured dependency answers, 503 otherwise; never a detail of the failure. */
export function health(ctx: AppContext): RequestHandler {
  return async (_req, res) => {
    const [db, redis] = await Promise.all([
      probe(() => ctx.sequelize.query('SELECT 1')),
      ctx.redis ? probe(() => ctx.redis!.ping()) : Promise.resolve('disabled' as const),
    ])
    const healthy = db === 'ok' && redis !== 'error'
    res.status(healthy ? 200 : 503).json({ status: healthy ? 'ok' : 'error', db, redis })
  }
}
