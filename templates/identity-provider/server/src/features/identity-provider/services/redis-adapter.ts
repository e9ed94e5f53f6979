import type { Adapter, AdapterPayload } from 'oidc-provider'
import type { Redis } from 'ioredis'
import { decrypt, encrypt } from '../../../kernel/index.js'
import { OidcPayload } from '../models/oidc-payload.js'
import { sha256 } from './digest.js'

/**
 * What lives minutes at most and is never listed by person: kept in Redis, where the app has it,
 * so a sign-in writes no database row until its grant and tokens. A revoking event of the person
 * reaches these through their grant, which stays in the database: a code or a device code whose
 * grant is gone is refused at the token endpoint, and the app signs the person in again for every
 * authorization (provider.ts), so a provider session alone lets nobody in.
 */
export const SHORT_LIVED_KINDS: ReadonlySet<string> = new Set(['Session', 'Interaction', 'AuthorizationCode', 'DeviceCode', 'ReplayDetection', 'PushedAuthorizationRequest', 'BackchannelAuthenticationRequest'])

/** The sealing purpose of an id kept beside a payload found by another key: the database adapter's. */
const JTI_PURPOSE = 'oauth-provider-jti'

/** For a payload stored without an expiry: none of these kinds lives a day. */
const DEFAULT_SECONDS = 86_400

export interface RedisStore {
  redis: Redis
  prefix: string
}

/**
 * oidc-provider's storage of one short-lived kind in Redis, as the database adapter stores it:
 * keys are SHA-256 digests (the id of a code is the code), a payload found by its uid or user
 * code keeps its id sealed with ENCRYPTION_KEY. Spending a code is one SET NX: of two requests
 * racing with one code, one spends it; the other is a reuse, which revokes the whole grant (its
 * rows in the database, its codes here) and answers `spent()`, as the database adapter does.
 */
export function redisAdapter(kind: string, store: RedisStore, encryptionKey: string, spent: () => Error): Adapter {
  const { redis, prefix } = store
  const keyOf = (id: string) => `${prefix}oidc:${sha256(`${kind}:${id}`)}`
  const pointer = (by: 'uid' | 'user-code', value: string) => `${prefix}oidc:${by}:${sha256(`${kind}:${value}`)}`
  const grantSet = (grantId: string) => `${prefix}oidc:grant:${sha256(grantId)}`

  const read = async (key: string | null, id?: string): Promise<AdapterPayload | undefined> => {
    if (key === null) return undefined
    const [stored, consumed] = await redis.mget(key, `${key}:consumed`)
    if (stored === null) return undefined
    const { jtiSealed, ...payload } = JSON.parse(stored) as AdapterPayload & { jtiSealed?: string }
    const jti = id ?? (jtiSealed ? decrypt(jtiSealed, encryptionKey, JTI_PURPOSE) : null)
    if (jti === null || jti === undefined) return undefined
    return { ...payload, jti, ...(consumed ? { consumed: Number(consumed) } : {}) }
  }

  return {
    async upsert(id, payload, expiresIn) {
      const { jti: _id, ...rest } = payload
      const seconds = expiresIn && expiresIn > 0 ? expiresIn : DEFAULT_SECONDS
      const key = keyOf(id)
      const foundByOther = payload.uid !== undefined || payload.userCode !== undefined
      const multi = redis.multi().set(key, JSON.stringify({ ...rest, ...(foundByOther ? { jtiSealed: encrypt(id, encryptionKey, JTI_PURPOSE) } : {}) }), 'EX', seconds)
      if (typeof payload.uid === 'string') multi.set(pointer('uid', payload.uid), key, 'EX', seconds)
      if (typeof payload.userCode === 'string') multi.set(pointer('user-code', payload.userCode), key, 'EX', seconds)
      // The grant's codes, for revokeByGrantId and a reuse: kept as long as the longest of them.
      if (typeof payload.grantId === 'string') multi.sadd(grantSet(payload.grantId), key).expire(grantSet(payload.grantId), seconds, 'GT').expire(grantSet(payload.grantId), seconds, 'NX')
      await multi.exec()
    },
    find: (id) => read(keyOf(id), id),
    findByUid: async (uid) => read(await redis.get(pointer('uid', uid))),
    findByUserCode: async (userCode) => read(await redis.get(pointer('user-code', userCode))),
    async consume(id) {
      const key = keyOf(id)
      const left = await redis.pttl(key)
      if ((await redis.set(`${key}:consumed`, String(Math.floor(Date.now() / 1000)), 'PX', Math.max(left, 1000), 'NX')) === 'OK') return
      const grantId = (JSON.parse((await redis.get(key)) ?? '{}') as { grantId?: unknown }).grantId
      if (typeof grantId === 'string') {
        await OidcPayload.destroy({ where: { grantId } })
        const keys = await redis.smembers(grantSet(grantId))
        if (keys.length > 0) await redis.del(...keys)
      }
      throw spent()
    },
    async destroy(id) {
      const key = keyOf(id)
      await redis.del(key, `${key}:consumed`)
    },
    async revokeByGrantId(grantId) {
      const keys = await redis.smembers(grantSet(grantId))
      if (keys.length > 0) await redis.del(...keys)
    },
  }
}
