import { z } from 'zod'
import type { RouteDoc } from '../../kernel/index.js'
import { connectionSchema } from './controllers/connection.js'
import { domainSchema } from './controllers/domains.js'
import { ssoStartSchema } from './controllers/sso-sign-in.js'

const tag = 'Single sign-on'
const domain = z.object({ domain: z.string(), verified: z.boolean(), txt_name: z.string(), txt_value: z.string() })
const roles = { default_role: z.enum(['member', 'admin']), require_sso: z.boolean() }
const connection = z.discriminatedUnion('type', [
  z.object({ type: z.literal('saml'), ...roles, idp_entity_id: z.string(), sso_url: z.string(), allow_idp_initiated: z.boolean() }),
  // The client secret is never shown again: it is kept sealed.
  z.object({ type: z.literal('oidc'), ...roles, issuer: z.string(), client_id: z.string() }),
])
const team = { tag, auth: true, errors: [403, 404, 429] } as const
const scimToken = z.object({ id: z.number().int(), prefix: z.string(), created_at: z.string(), last_used_at: z.string().nullable() })
const redirect = { description: 'To the app, or to `/login?sso=failed` when the answer signs nobody in (why goes to the log)' }

/** The SSO routes: a team's (its owners and admins; a session only), and the sign-in's (signed out). */
export const routeDocs: RouteDoc[] = [
  {
    method: 'get', path: '/api/teams/:id/sso', ...team, summary: "The team's SSO: its connection (no secret), the values to give the identity provider, its domains",
    responses: { 200: { description: 'The connection is null until an owner sets one up', body: z.object({ connection: connection.nullable(), sp: z.object({ entity_id: z.string(), acs_url: z.string(), metadata_url: z.string(), redirect_uri: z.string() }), domains: z.array(domain) }) } },
  },
  {
    method: 'put', path: '/api/teams/:id/sso', ...team, summary: "Set the team's connection up (owners, step-up), replacing any it had: a SAML IdP's metadata, or an OpenID provider's issuer (discovered now; 422 `errors.issuer` when it cannot be) and client", body: connectionSchema,
    responses: { 200: { description: 'Saved', body: z.object({ connection }) } },
  },
  { method: 'delete', path: '/api/teams/:id/sso', ...team, summary: "Remove the team's connection (owners, step-up)", responses: { 204: { description: 'Gone, or there was none' } } },
  {
    method: 'post', path: '/api/teams/:id/domains', ...team, summary: 'Claim a domain for the team (owners, step-up): publish the TXT record it answers, then verify', body: domainSchema,
    responses: { 201: { description: 'Claimed, not verified yet', body: domain } },
  },
  {
    method: 'post', path: '/api/teams/:id/domains/:domain/verify', ...team, errors: [403, 404, 422, 429], summary: "Check the domain's TXT record (owners): found, the domain is the team's",
    responses: { 200: { description: 'Verified', body: z.object({ verified: z.literal(true) }) } },
  },
  {
    method: 'get', path: '/api/teams/:id/scim-tokens', ...team, summary: "The team's SCIM tokens (owners): by prefix, when made and last used, never a token",
    responses: { 200: { description: 'Newest first', body: z.object({ scim_tokens: z.array(scimToken) }) } },
  },
  {
    method: 'post', path: '/api/teams/:id/scim-tokens', ...team, errors: [403, 404, 422, 429], summary: "Make a SCIM token for the team's identity provider (owners, step-up): `Authorization: Bearer <token>` on `{BASE_URL}/scim/v2`",
    responses: { 201: { description: 'The token, shown this once: only its hash is kept', body: z.object({ id: z.number().int(), token: z.string() }) } },
  },
  { method: 'delete', path: '/api/teams/:id/scim-tokens/:tokenId', ...team, summary: 'Revoke a SCIM token (owners): its next request is a 401', responses: { 204: { description: 'Revoked' } } },
  {
    method: 'post', path: '/api/auth/sso', tag, errors: [429, 503], summary: 'Continue with SSO: the sign-in URL of the IdP of the team that verified the address’s domain', body: ssoStartSchema,
    responses: { 200: { description: 'Where the browser goes next', body: z.object({ redirect: z.string() }) } },
  },
  {
    method: 'get', path: '/api/auth/sso/saml/:teamId/metadata', tag, errors: [404], summary: "The team's SAML service provider metadata, for its IdP",
    responses: { 200: { description: 'SP metadata', contentType: 'application/samlmetadata+xml' } },
  },
  { method: 'post', path: '/api/auth/sso/saml/:teamId/acs', tag, errors: [429], summary: "The IdP's answer (SAML POST binding, a form with `SAMLResponse`)", responses: { 303: redirect } },
  {
    method: 'get', path: '/api/auth/sso/oidc/:teamId/callback', tag, errors: [429], summary: "The OpenID provider's answer (`code`, `state`), in the browser that started the sign-in: its signed cookie holds the flow",
    responses: { 303: redirect },
  },
]
