import { Redis } from 'ioredis'
import { cacheChannel } from '../../src/kernel/auth/auth-cache.js'
import { within } from './requests.js'
import { redisUrl } from './test-app.js'

/**
 * Waits until `count` instances of `keyPrefix` listen for cache changes: an instance subscribes in
 * the background as it starts, and a change published before then never reaches it (a fixed
 * 200 ms wait stood here, which a busy machine can outlast).
 */
export async function instancesListening(keyPrefix: string, count: number): Promise<void> {
  const redis = new Redis(redisUrl!)
  try {
    await within(10_000, async () => {
      const [, listeners] = (await redis.pubsub('NUMSUB', cacheChannel(keyPrefix))) as [string, number]
      return Number(listeners) >= count
    })
  } finally {
    redis.disconnect()
  }
}
