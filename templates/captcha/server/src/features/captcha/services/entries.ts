import { createHash } from 'node:crypto'
import { Op } from 'sequelize'
import type { AppContext } from '../../../kernel/index.js'
import { CaptchaEntry } from '../models/captcha-entry.js'

type Kind = 'challenge' | 'token'

/**
 * Where Cap's challenges and tokens wait to be used: Redis when the app has it (shared by every
 * instance, gone when they expire), else the database. Each is kept under the SHA-256 of what
 * the client holds, and `take` removes it as it reads it, in one step, so that two requests racing
 * with the same one cannot both have it.
 */
export interface Entries {
  put(kind: Kind, id: string, data: string, expiresAt: number): Promise<void>
  /** The entry's data, if it was there and had not expired; it is gone either way. */
  take(kind: Kind, id: string): Promise<string | null>
  dropExpired(): Promise<void>
}

const digest = (id: string) => createHash('sha256').update(id).digest('hex')

export function captchaEntries(ctx: Pick<AppContext, 'redis' | 'keyPrefix'>): Entries {
  const redis = ctx.redis
  if (redis) {
    const key = (kind: Kind, id: string) => `${ctx.keyPrefix}captcha:${kind}:${digest(id)}`
    return {
      async put(kind, id, data, expiresAt) {
        await redis.set(key(kind, id), data, 'PXAT', expiresAt)
      },
      take: (kind, id) => redis.getdel(key(kind, id)),
      // Redis expires them itself.
      dropExpired: async () => undefined,
    }
  }
  const key = (kind: Kind, id: string) => `${kind}:${digest(id)}`
  return {
    async put(kind, id, data, expiresAt) {
      await CaptchaEntry.create({ key: key(kind, id), data, expiresAt })
    },
    async take(kind, id) {
      const entry = await CaptchaEntry.findByPk(key(kind, id))
      // Whoever deletes the row has it: a concurrent taker deletes nothing.
      if (!entry || (await CaptchaEntry.destroy({ where: { key: entry.key } })) === 0) return null
      return entry.expiresAt > Date.now() ? entry.data : null
    },
    async dropExpired() {
      await CaptchaEntry.destroy({ where: { expiresAt: { [Op.lt]: Date.now() } } })
    },
  }
}
