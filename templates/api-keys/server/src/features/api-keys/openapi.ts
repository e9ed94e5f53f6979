import { z } from 'zod'
import { type RouteDoc, timestamp } from '../../kernel/index.js'
import { createApiKeySchema } from './controllers/create-api-key.js'
import { renameApiKeySchema } from './controllers/rename-api-key.js'
import { SCOPES } from './services/fields.js'

const tag = 'API keys'
const apiKey = z.object({
  id: z.number().int(),
  name: z.string(),
  prefix: z.string().regex(/^cca_[A-Za-z0-9]+$/),
  scopes: z.array(z.enum(SCOPES)),
  createdAt: timestamp,
  expiresAt: timestamp.nullable(),
  lastUsedAt: timestamp.nullable(),
  lastUsedIp: z.string().nullable(),
})
const account = { tag, auth: true, errors: [429] } as const

/** The API-key layer's routes. */
export const routeDocs: RouteDoc[] = [
  { method: 'get', path: '/api/account/api-keys', ...account, summary: 'The API keys (never the keys themselves)', responses: { 200: { description: 'Newest first; revoked keys are not listed', body: z.object({ data: z.array(apiKey) }) } } },
  {
    method: 'post', path: '/api/account/api-keys', ...account, errors: [403, 429], summary: 'Make an API key (step-up)', body: createApiKeySchema,
    responses: { 201: { description: 'Made: `key` is shown this once', body: z.object({ api_key: apiKey, key: z.string().regex(/^cca_[A-Za-z0-9]+_[A-Za-z0-9_-]+$/) }) } },
  },
  { method: 'patch', path: '/api/account/api-keys/:id', ...account, errors: [404, 429], summary: 'Rename an API key', body: renameApiKeySchema, responses: { 200: { description: 'Renamed', body: z.object({ api_key: apiKey }) } } },
  { method: 'delete', path: '/api/account/api-keys/:id', ...account, errors: [404, 429], summary: 'Revoke an API key: its next request is a 401', responses: { 204: { description: 'Revoked' } } },
]
