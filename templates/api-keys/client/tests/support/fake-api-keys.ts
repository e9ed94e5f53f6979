import type { ApiKey, ApiKeyScope } from '@/features/api-keys/lib/api-keys'
import type { Received, Reply, TestServer } from './server'

const notFound: Reply = { status: 404, body: { message: 'Not Found.' } }
const invalid = (field: string, message: string): Reply => ({ status: 422, body: { message, errors: { [field]: [message] } } })
const DAY = 24 * 60 * 60 * 1000
const DURATIONS: Record<string, number> = { '30d': 30 * DAY, '90d': 90 * DAY, '365d': 365 * DAY }

export const hoursAgo = (hours: number) => new Date(Date.now() - hours * 3600_000).toISOString()

/** A key as the API lists it, with its usual fields filled. */
export const apiKey = (id: number, name: string, more: Partial<ApiKey> = {}): ApiKey => ({
  id,
  name,
  prefix: `cca_k${id}x9`,
  scopes: ['read'],
  createdAt: hoursAgo(72),
  expiresAt: null,
  lastUsedAt: null,
  lastUsedIp: null,
  ...more,
})

/**
 * The API keys routes on the test server for one user, with the API's rules the page
 * shows: a name, at least one known scope, `admin` only for an admin (422 `errors.scopes`), a 404
 * for a key that is gone. `guard` wraps the creation, which needs a confirmed session (step-up).
 */
export function fakeApiKeysApi(server: TestServer, options: { admin?: boolean; keys?: ApiKey[]; guard?: (answer: (req: Received) => Reply) => (req: Received) => Reply } = {}) {
  const guard = options.guard ?? ((answer) => answer)
  const state = { keys: [...(options.keys ?? [])], secrets: [] as string[] }
  let nextId = 100

  const byId = (id: string) => state.keys.find((key) => String(key.id) === id)

  function routeKey(key: ApiKey) {
    const path = `/api/account/api-keys/${key.id}`
    server.on('PATCH', path, (req) => {
      if (!byId(String(key.id))) return notFound
      const name = String(req.json?.name ?? '').trim()
      if (!name) return invalid('name', 'The name field is required.')
      key.name = name
      return { body: { api_key: key } }
    })
    server.on('DELETE', path, () => {
      if (!byId(String(key.id))) return notFound
      state.keys = state.keys.filter((each) => each !== key)
      return { status: 204 }
    })
  }

  server.on('GET', '/api/account/api-keys', () => ({ body: { data: state.keys } }))
  server.on('POST', '/api/account/api-keys', guard((req) => {
    const name = String(req.json?.name ?? '').trim()
    if (!name) return invalid('name', 'The name field is required.')
    const scopes: ApiKeyScope[] = Array.isArray(req.json?.scopes) ? req.json.scopes : []
    if (!scopes.length || scopes.some((scope) => !['read', 'write', 'admin'].includes(scope))) return invalid('scopes', 'Choose at least one scope.')
    if (scopes.includes('admin') && !options.admin) return invalid('scopes', 'Only admins may give a key the admin scope.')
    const expiresIn = req.json?.expires_in
    if (expiresIn !== undefined && !DURATIONS[expiresIn]) return invalid('expires_in', 'The expiry is invalid.')
    const id = nextId++
    const key = apiKey(id, name, { scopes, createdAt: new Date().toISOString(), expiresAt: expiresIn ? new Date(Date.now() + DURATIONS[expiresIn]!).toISOString() : null })
    const secret = `cca_k${id}x9_${'s'.repeat(40)}${id}`
    state.keys = [key, ...state.keys]
    state.secrets.push(secret)
    routeKey(key)
    return { status: 201, body: { api_key: key, key: secret } }
  }))
  for (const key of state.keys) routeKey(key)
  return state
}
