import { z } from 'zod'
import type { RouteDoc } from '../../kernel/index.js'
import { domainSchema } from './controllers/domains.js'

const tag = 'Single sign-on'
const domain = z.object({ domain: z.string(), verified: z.boolean(), txt_name: z.string(), txt_value: z.string() })
const connection = z.object({ type: z.enum(['saml', 'oidc']), default_role: z.string(), require_sso: z.boolean() })
const team = { tag, auth: true, errors: [403, 404, 429] } as const

/** The SSO routes of a team (its owners and admins; a session only). */
export const routeDocs: RouteDoc[] = [
  {
    method: 'get', path: '/api/teams/:id/sso', ...team, summary: "The team's SSO: its connection (no secret), the values to give the identity provider, its domains",
    responses: { 200: { description: 'The connection is null until an owner sets one up', body: z.object({ connection: connection.nullable(), sp: z.object({ entity_id: z.string(), acs_url: z.string(), metadata_url: z.string() }), domains: z.array(domain) }) } },
  },
  {
    method: 'post', path: '/api/teams/:id/domains', ...team, summary: 'Claim a domain for the team (owners, step-up): publish the TXT record it answers, then verify', body: domainSchema,
    responses: { 201: { description: 'Claimed, not verified yet', body: domain } },
  },
  {
    method: 'post', path: '/api/teams/:id/domains/:domain/verify', ...team, errors: [403, 404, 422, 429], summary: "Check the domain's TXT record (owners): found, the domain is the team's",
    responses: { 200: { description: 'Verified', body: z.object({ verified: z.literal(true) }) } },
  },
]
