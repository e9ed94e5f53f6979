import type { AppContext } from '../../../kernel/index.js'
import { ApiKey } from '../models/api-key.js'
import { scopesOf } from './api-key-json.js'

/** A key as authentication reads it on every request, by lookup id. */
export interface KeyEntry {
  id: number
  userId: number
  /** The SHA-256 of the secret. */
  secretHash: Buffer
  scopes: readonly string[]
  /** Epoch ms, or null for a key that never expires. */
  expiresAt: number | null
  /** Epoch ms of the last use written (or about to be): services/last-use.ts. */
  lastUsedAt: number | null
}

/** What the layer uses of the kernel's credential cache (kernel/auth/auth-cache.ts `CredentialCache`). */
export interface KeyCache {
  cached(lookupId: string): KeyEntry | undefined
  get(lookupId: string): Promise<KeyEntry | undefined>
  /** Drops the key here and, through Redis, on every instance: its next request reads the database. */
  changed(lookupId: string): void
}

/** Only keys that are not revoked are loaded: a revoked one is as unknown as a made-up one. */
async function loadKey(lookupId: string): Promise<KeyEntry | undefined> {
  const row = await ApiKey.findOne({ where: { lookupId, revokedAt: null } })
  if (!row) return undefined
  return {
    id: row.id,
    userId: row.userId,
    secretHash: Buffer.from(row.secretHash, 'hex'),
    scopes: Object.freeze(scopesOf(row)),
    expiresAt: row.expiresAt ? row.expiresAt.getTime() : null,
    lastUsedAt: row.lastUsedAt ? row.lastUsedAt.getTime() : null,
  }
}

/**
 * The kernel's cache of keys, one per app: every revoking event of a user (`sessionsChanged`)
 * drops their keys on every instance, and a hit costs no query.
 */
export const keyCache = (ctx: Pick<AppContext, 'authCache'>): KeyCache => ctx.authCache.credentials('api-key', loadKey)
