import { createHash } from 'node:crypto'
import { Op, UniqueConstraintError } from 'sequelize'
import type { AppContext } from '../../../kernel/index.js'
import { SamlId } from '../models/saml-id.js'

type Deps = Pick<AppContext, 'redis' | 'keyPrefix'>

/** An id as stored: its kind and team, and a digest of the id itself (an IdP's ids have no length limit). */
const keyOf = (kind: 'request' | 'assertion' | 'oidc-state', teamId: number, id: string) => `sso:${kind}:${teamId}:${createHash('sha256').update(id).digest('base64url')}`

/**
 * Remembers `key` for `lifeMs`; false when it is remembered already. Atomic in Redis (SET NX)
 * and in the database (the primary key), so of two concurrent uses one alone gets true.
 */
async function rememberOnce(deps: Deps, key: string, lifeMs: number): Promise<boolean> {
  if (deps.redis) return (await deps.redis.set(`${deps.keyPrefix}${key}`, '1', 'PX', lifeMs, 'NX')) === 'OK'
  const now = new Date()
  await SamlId.destroy({ where: { key, expiresAt: { [Op.lte]: now } } })
  try {
    await SamlId.create({ key, expiresAt: new Date(now.getTime() + lifeMs) })
    return true
  } catch (error) {
    if (error instanceof UniqueConstraintError) return false
    throw error
  }
}

/** When `key` was remembered for `lifeMs`, or null when it is not (or no longer). */
async function rememberedAt(deps: Deps, key: string, lifeMs: number): Promise<Date | null> {
  const left = deps.redis
    ? await deps.redis.pttl(`${deps.keyPrefix}${key}`)
    : ((await SamlId.findOne({ where: { key, expiresAt: { [Op.gt]: new Date() } } }))?.expiresAt.getTime() ?? Date.now()) - Date.now()
  return left > 0 ? new Date(Date.now() + left - lifeMs) : null
}

async function forget(deps: Deps, key: string): Promise<void> {
  if (deps.redis) await deps.redis.del(`${deps.keyPrefix}${key}`)
  else await SamlId.destroy({ where: { key } })
}

/** Forgets `key`; true only for the one caller that found it still remembered (DEL and DELETE count what they removed). */
async function takeOnce(deps: Deps, key: string): Promise<boolean> {
  if (deps.redis) return (await deps.redis.del(`${deps.keyPrefix}${key}`)) === 1
  return (await SamlId.destroy({ where: { key, expiresAt: { [Op.gt]: new Date() } } })) === 1
}

/** How long a sign-in may take at the IdP: an answer to an older request is refused. */
export const REQUEST_LIFE_MS = 10 * 60_000

/**
 * The requests sent for one team, in the shape node-saml's `cacheProvider` takes: an answer must
 * be `InResponseTo` one of them, and node-saml forgets it once answered.
 */
export const requestIds = (deps: Deps, teamId: number) => ({
  async saveAsync(id: string, value: string) {
    await rememberOnce(deps, keyOf('request', teamId, id), REQUEST_LIFE_MS)
    return { value, createdAt: Date.now() }
  },
  // node-saml reads the value as the instant the request was sent, to check its age itself.
  async getAsync(id: string) {
    return (await rememberedAt(deps, keyOf('request', teamId, id), REQUEST_LIFE_MS))?.toISOString() ?? null
  },
  async removeAsync(id: string | null) {
    if (id !== null) await forget(deps, keyOf('request', teamId, id))
    return id
  },
})

/** Takes an assertion's id for good (until `until`, after which the assertion is refused anyway); false when it was taken before: a replay. */
export const takeAssertion = (deps: Deps, teamId: number, id: string, until: Date) =>
  rememberOnce(deps, keyOf('assertion', teamId, id), Math.max(until.getTime() - Date.now(), 0) + 5 * 60_000)

/**
 * An OpenID sign-in under way for the team, known by its `state`: remembered at the start, taken
 * at the callback, so each answer is good once, at any instance, and only within REQUEST_LIFE_MS.
 */
export const oidcStates = (deps: Deps, teamId: number) => ({
  remember: (state: string) => rememberOnce(deps, keyOf('oidc-state', teamId, state), REQUEST_LIFE_MS),
  take: (state: string) => takeOnce(deps, keyOf('oidc-state', teamId, state)),
})
