import type { Request } from 'express'
import { Op } from 'sequelize'
import type { AppContext } from '../../../kernel/index.js'
import { ApiKey } from '../models/api-key.js'
import type { KeyEntry } from './key-cache.js'

/** A key's last use is written at most once a minute: a busy key costs one UPDATE a minute, not one per request. */
export const LAST_USE_EVERY_MS = 60_000

/**
 * Notes the key's use (`lastUsedAt`, `lastUsedIp`) when the last one noted is a minute old, without
 * holding the request: the UPDATE runs on its own and a failure is logged, never answered. Its
 * condition keeps the once-a-minute rule across instances too.
 */
export function noteUse(req: Request, ctx: Pick<AppContext, 'logger'>, entry: KeyEntry): void {
  const now = Date.now()
  if (entry.lastUsedAt !== null && now - entry.lastUsedAt < LAST_USE_EVERY_MS) return
  entry.lastUsedAt = now
  const before = new Date(now - LAST_USE_EVERY_MS)
  ApiKey.update(
    { lastUsedAt: new Date(now), lastUsedIp: (req.ip ?? '').slice(0, 45) || null },
    { where: { id: entry.id, [Op.or]: [{ lastUsedAt: null }, { lastUsedAt: { [Op.lt]: before } }] }, silent: true },
  ).catch((error: unknown) => ctx.logger.warn({ err: error, apiKey: entry.id }, 'API key: cannot record its last use'))
}
