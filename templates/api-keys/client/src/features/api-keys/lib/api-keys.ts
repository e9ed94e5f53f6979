import type { RowId } from '@/types'

/** What a key may do: `read` the GET routes, `write` the others, `admin` the admin routes (admins only). */
export type ApiKeyScope = 'read' | 'write' | 'admin'

/** A key as `/api/account/api-keys` lists it: never the key itself, which only its creation answer holds. */
export interface ApiKey {
  id: RowId
  name: string
  /** `cca_<id>`, the public start of the key, to tell keys apart. */
  prefix: string
  scopes: ApiKeyScope[]
  createdAt: string
  expiresAt: string | null
  lastUsedAt: string | null
  lastUsedIp: string | null
}

/** `POST /api/account/api-keys`' answer: the key in full, this once. */
export interface CreatedApiKey {
  api_key: ApiKey
  key: string
}

export const API_KEYS_URL = '/api/account/api-keys'
export const apiKeyUrl = (key: Pick<ApiKey, 'id'>) => `${API_KEYS_URL}/${encodeURIComponent(String(key.id))}`

// The same limit the API checks.
export const NAME_MAX_LENGTH = 100

/** Every scope, in the order the page shows them, with its words (catalogue keys). */
export const SCOPES = [
  { scope: 'read', label: 'apiKeys.scopeRead', hint: 'apiKeys.scopeReadHint' },
  { scope: 'write', label: 'apiKeys.scopeWrite', hint: 'apiKeys.scopeWriteHint' },
  { scope: 'admin', label: 'apiKeys.scopeAdmin', hint: 'apiKeys.scopeAdminHint' },
] as const satisfies readonly { scope: ApiKeyScope; label: string; hint: string }[]

/** The scopes a person may give: `admin` only to an admin's keys. */
export const scopesFor = (admin: boolean) => SCOPES.filter(({ scope }) => admin || scope !== 'admin')

export const scopeLabel = (scope: string) => SCOPES.find((each) => each.scope === scope)?.label

/** The lifetimes offered, as `expires_in` durations (the `.env` kind); '' never expires. */
export const EXPIRIES = [
  { value: '', label: 'apiKeys.expiryNever' },
  { value: '30d', label: 'apiKeys.expiry30Days' },
  { value: '90d', label: 'apiKeys.expiry90Days' },
  { value: '365d', label: 'apiKeys.expiryYear' },
] as const
export type Expiry = (typeof EXPIRIES)[number]['value']

/** A new key's request body: its scopes in their usual order, no `expires_in` for one that never expires. */
export function createBody({ name, scopes, expires_in }: { name: string; scopes: ApiKeyScope[]; expires_in: Expiry }) {
  const body = { name: name.trim(), scopes: SCOPES.map(({ scope }) => scope).filter((scope) => scopes.includes(scope)) }
  return expires_in ? { ...body, expires_in } : body
}

export const expired = (key: Pick<ApiKey, 'expiresAt'>, now = Date.now()) => key.expiresAt !== null && Date.parse(key.expiresAt) <= now
