import { z } from 'zod'
import { type RouteDoc, timestamp } from '../../../kernel/index.js'
import { renameApiKeySchema } from '../controllers/rename-api-key.js'
import { TEAM_ROLES } from '../../teams/public.js'
import { createTeamKeySchema } from './fields.js'

const tag = 'API keys'
const teamKey = z.object({
  id: z.number().int(),
  name: z.string(),
  prefix: z.string().regex(/^cca_[A-Za-z0-9]+$/),
  scopes: z.array(z.enum(['read', 'write'])),
  role: z.enum(TEAM_ROLES),
  createdBy: z.number().int(),
  createdAt: timestamp,
  expiresAt: timestamp.nullable(),
  lastUsedAt: timestamp.nullable(),
  lastUsedIp: z.string().nullable(),
})
const team = { tag, auth: true, errors: [403, 404, 429] } as const

/** The team keys' routes (owners and admins of the team; a session only). */
export const routeDocs: RouteDoc[] = [
  { method: 'get', path: '/api/teams/:id/api-keys', ...team, summary: "The team's API keys (never the keys themselves)", responses: { 200: { description: 'Newest first; revoked keys are not listed', body: z.object({ data: z.array(teamKey) }) } } },
  {
    method: 'post', path: '/api/teams/:id/api-keys', ...team, summary: "Make a team's API key (step-up): it acts as its maker within the team, with at most `role`", body: createTeamKeySchema,
    responses: { 201: { description: 'Made: `key` is shown this once', body: z.object({ api_key: teamKey, key: z.string().regex(/^cca_[A-Za-z0-9]+_[A-Za-z0-9_-]+$/) }) } },
  },
  { method: 'patch', path: '/api/teams/:id/api-keys/:keyId', ...team, summary: "Rename a team's API key", body: renameApiKeySchema, responses: { 200: { description: 'Renamed', body: z.object({ api_key: teamKey }) } } },
  { method: 'delete', path: '/api/teams/:id/api-keys/:keyId', ...team, summary: "Revoke a team's API key: its next request is a 401", responses: { 204: { description: 'Revoked' } } },
]
