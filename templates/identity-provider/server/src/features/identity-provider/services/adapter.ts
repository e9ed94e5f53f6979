import type { Adapter, AdapterPayload } from 'oidc-provider'
import { Op } from 'sequelize'
import { decrypt, encrypt } from '../../../kernel/index.js'
import { OidcPayload } from '../models/oidc-payload.js'
import type { ClientEntry } from './client-cache.js'
import { sha256 } from './digest.js'
import { redisAdapter, type RedisStore, SHORT_LIVED_KINDS } from './redis-adapter.js'

/** The sealing purpose of the ids kept beside a payload found by another key (kernel/security/encryption.ts). */
const JTI_PURPOSE = 'oauth-provider-jti'
/** How often, at most, a process deletes the expired rows while it writes. */
const PRUNE_EVERY_MS = 3600_000

/**
 * Where the clients come from: the kernel's credential cache of them (services/client-cache.ts),
 * and, with registration open, where a client that registers itself goes (`register`).
 */
export interface ClientSource {
  get(clientId: string): Promise<ClientEntry | undefined>
  register(clientId: string, metadata: AdapterPayload): Promise<void>
}

const epoch = (date: Date) => Math.floor(date.getTime() / 1000)
const userIdOf = (accountId: unknown): number | null => (typeof accountId === 'string' && /^[1-9]\d{0,9}$/.test(accountId) ? Number(accountId) : null)

/**
 * oidc-provider's storage on the app's database: one adapter per model kind, every kind in
 * `oidc_payloads` (models/oidc-payload.ts) but clients, which are the admins' `oauth_clients`, and,
 * where the app has Redis, the short-lived kinds (services/redis-adapter.ts).
 *
 * Nothing that works as a credential is kept as it is: a row's key is the SHA-256 of its id
 * (the id of a code or an opaque token is the code or token), a user code and a session's uid
 * are hashed too, and a payload found by one of those instead of its id (a session, a device
 * code) keeps its id sealed with ENCRYPTION_KEY, for oidc-provider needs it back.
 *
 * Spending a code or a refresh token is one conditional update: of two requests racing with the
 * same one, only one spends it; the other is a reuse, which revokes the whole grant and answers
 * `spent()` (invalid_grant), as oidc-provider does for a reuse it sees itself.
 */
export function sequelizeAdapter(encryptionKey: string, spent: () => Error, clients: ClientSource, redis: RedisStore | null): (kind: string) => Adapter {
  let prunedAt = 0
  const prune = () => {
    if (Date.now() - prunedAt < PRUNE_EVERY_MS) return
    prunedAt = Date.now()
    void OidcPayload.destroy({ where: { expiresAt: { [Op.lt]: new Date() } } }).catch(() => {
      prunedAt = 0
    })
  }

  return (kind) => {
    if (kind === 'Client') return clientAdapter(clients)
    if (redis && SHORT_LIVED_KINDS.has(kind)) return redisAdapter(kind, redis, encryptionKey, spent)
    const keyOf = (id: string) => sha256(`${kind}:${id}`)

    const read = (row: OidcPayload | null, id?: string): AdapterPayload | undefined => {
      if (!row || (row.expiresAt && row.expiresAt.getTime() <= Date.now())) return undefined
      const { jtiSealed, ...payload } = JSON.parse(row.payload) as AdapterPayload & { jtiSealed?: string }
      const jti = id ?? (jtiSealed ? decrypt(jtiSealed, encryptionKey, JTI_PURPOSE) : null)
      if (jti === null || jti === undefined) return undefined
      return { ...payload, jti, ...(row.consumedAt ? { consumed: epoch(row.consumedAt) } : {}) }
    }

    return {
      async upsert(id, payload, expiresIn) {
        const { jti: _id, userCode, uid, ...rest } = payload
        // Found by its uid or user code, or listed by person (a grant), not by its id: its id rides along, sealed.
        const sealed = kind === 'Grant' || uid !== undefined || userCode !== undefined ? { jtiSealed: encrypt(id, encryptionKey, JTI_PURPOSE) } : {}
        await OidcPayload.upsert({
          id: keyOf(id),
          kind,
          payload: JSON.stringify({ ...rest, ...(uid === undefined ? {} : { uid }), ...(userCode === undefined ? {} : { userCode }), ...sealed }),
          // A grant is its own family: revoking by its id takes it with its codes and tokens.
          grantId: kind === 'Grant' ? id : typeof payload.grantId === 'string' ? payload.grantId : null,
          clientId: typeof payload.clientId === 'string' ? payload.clientId : null,
          userCodeHash: typeof userCode === 'string' ? sha256(userCode) : null,
          uid: typeof uid === 'string' ? sha256(uid) : null,
          userId: userIdOf(payload.accountId),
          expiresAt: expiresIn ? new Date(Date.now() + expiresIn * 1000) : null,
          consumedAt: null,
        })
        prune()
      },
      async find(id) {
        return read(await OidcPayload.findByPk(keyOf(id)), id)
      },
      async findByUid(uid) {
        return read(await OidcPayload.findOne({ where: { kind, uid: sha256(uid) } }))
      },
      async findByUserCode(userCode) {
        return read(await OidcPayload.findOne({ where: { kind, userCodeHash: sha256(userCode) } }))
      },
      async consume(id) {
        const key = keyOf(id)
        const [spentNow] = await OidcPayload.update({ consumedAt: new Date() }, { where: { id: key, consumedAt: null } })
        if (spentNow === 1) return
        const row = await OidcPayload.findByPk(key, { attributes: ['grantId'] })
        if (row?.grantId) await OidcPayload.destroy({ where: { grantId: row.grantId } })
        throw spent()
      },
      async destroy(id) {
        await OidcPayload.destroy({ where: { id: keyOf(id) } })
      },
      async revokeByGrantId(grantId) {
        await OidcPayload.destroy({ where: { kind, grantId } })
      },
    }
  }
}

/** The ids of a person's grants to a client, newest last: what consent adds to and a person's list of apps shows. */
export async function grantIdsOf(userId: number, clientId: string, encryptionKey: string): Promise<string[]> {
  const rows = await OidcPayload.findAll({ where: { kind: 'Grant', userId, clientId, expiresAt: { [Op.or]: [null, { [Op.gt]: new Date() }] } } })
  return rows.flatMap((row) => {
    const sealed = (JSON.parse(row.payload) as { jtiSealed?: string; iat?: number }).jtiSealed
    const jti = sealed ? decrypt(sealed, encryptionKey, JTI_PURPOSE) : null
    return jti === null ? [] : [jti]
  })
}

/**
 * Clients are the rows admins make through the API (`/api/admin/oauth-clients`), and those that
 * registered themselves; oidc-provider reads them through the credential cache
 * (services/client-cache.ts), and holds each one's secret as the hash it compares against.
 */
const clientAdapter = (clients: ClientSource): Adapter => ({
  async find(clientId) {
    const entry = await clients.get(clientId)
    return entry ? { ...entry.metadata } : undefined
  },
  // Only a registration (RFC 7591) stores a client here; the admins' go through their API.
  async upsert(clientId, metadata) {
    await clients.register(clientId, metadata)
  },
  async findByUid() {
    return undefined
  },
  async findByUserCode() {
    return undefined
  },
  async consume() {},
  async destroy() {},
  async revokeByGrantId() {},
})
