import type { ApiKey } from '../models/api-key.js'
import { prefixOf } from './keys.js'

export interface ApiKeyJson {
  id: number
  name: string
  /** `cca_<id>`: what names the key, the secret left out. */
  prefix: string
  scopes: string[]
  createdAt: string
  expiresAt: string | null
  lastUsedAt: string | null
  lastUsedIp: string | null
}

export const scopesOf = (key: Pick<ApiKey, 'scopes'>): string[] => JSON.parse(key.scopes) as string[]

/** The only shape in which a key leaves the server: never the key itself or its hash. */
export const apiKeyJson = (key: ApiKey): ApiKeyJson => ({
  id: key.id,
  name: key.name,
  prefix: prefixOf(key.lookupId),
  scopes: scopesOf(key),
  createdAt: key.createdAt.toISOString(),
  expiresAt: key.expiresAt ? key.expiresAt.toISOString() : null,
  lastUsedAt: key.lastUsedAt ? key.lastUsedAt.toISOString() : null,
  lastUsedIp: key.lastUsedIp ?? null,
})
