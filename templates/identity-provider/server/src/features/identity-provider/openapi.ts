import { z } from 'zod'
import { type RouteDoc, timestamp } from '../../kernel/index.js'
import { CLIENT_SCOPES, createClientSchema, GRANT_TYPES, updateClientSchema } from './services/client-fields.js'
import { AUTHORIZATION_SERVER_METADATA, PROTECTED_RESOURCE_METADATA } from './services/urls.js'

const providerTag = 'OAuth provider'
const consentTag = 'OAuth provider: consent'
const clientsTag = 'OAuth provider: clients'
const connectedTag = 'OAuth provider: connected apps'
const redirect = z.object({ redirect: z.string().describe('The provider address the browser goes to next: it answers the client') })
const client = z.object({
  id: z.number().int(),
  client_id: z.string(),
  name: z.string(),
  type: z.enum(['public', 'confidential']),
  redirect_uris: z.array(z.string()),
  grant_types: z.array(z.enum(GRANT_TYPES)),
  scopes: z.array(z.enum(CLIENT_SCOPES)),
  dynamic: z.boolean().describe('Registered by itself (RFC 7591, OAUTH_PROVIDER_REGISTRATION=open), not by an admin'),
  createdAt: timestamp,
  updatedAt: timestamp,
})
const interaction = { tag: consentTag, auth: true, errors: [404] } as const
const admin = { tag: clientsTag, auth: true, errors: [403] } as const
const connectedApp = z.object({
  client_id: z.string(),
  name: z.string(),
  scopes: z.array(z.string()),
  createdAt: timestamp,
  lastUsedAt: timestamp.nullable().describe('When the app last got a token for the person'),
})

/** The consent page's routes and the admins' client routes; the provider's own endpoints are described by its discovery document. */
export const routeDocs: RouteDoc[] = [
  ...AUTHORIZATION_SERVER_METADATA.map((path): RouteDoc => ({
    method: 'get', path, tag: providerTag, summary: 'The authorization server\'s metadata (RFC 8414): the OpenID discovery document of `{BASE_URL}/oauth2`',
    responses: { 200: { description: 'Its endpoints and what it supports', body: z.looseObject({ issuer: z.string(), authorization_endpoint: z.string(), token_endpoint: z.string(), jwks_uri: z.string() }) } },
  })),
  ...PROTECTED_RESOURCE_METADATA.map((path): RouteDoc => ({
    method: 'get', path, tag: providerTag, summary: 'The API as a protected resource (RFC 9728): who issues its tokens',
    responses: { 200: { description: 'The resource and its authorization server', body: z.object({ resource: z.string(), authorization_servers: z.array(z.string()), scopes_supported: z.array(z.string()), bearer_methods_supported: z.array(z.string()), dpop_signing_alg_values_supported: z.array(z.string()) }) } },
  })),
  {
    method: 'get', path: '/api/oauth2/interaction/:uid', ...interaction, summary: 'The authorization request waiting in this browser',
    responses: { 200: { description: 'Who asks, for what, for whom; `granted` when the person allowed all of it before', body: z.object({ client: z.object({ id: z.string(), name: z.string() }), scopes: z.array(z.string()), account: z.object({ name: z.string(), email: z.string() }), granted: z.boolean() }) } },
  },
  { method: 'post', path: '/api/oauth2/interaction/:uid/consent', ...interaction, summary: 'Allow the request', responses: { 200: { description: 'Allowed', body: redirect } } },
  { method: 'post', path: '/api/oauth2/interaction/:uid/deny', ...interaction, summary: 'Decline the request: the client hears access_denied', responses: { 200: { description: 'Declined', body: redirect } } },
  { method: 'get', path: '/api/admin/oauth-clients', ...admin, summary: 'The registered clients (never their secrets)', responses: { 200: { description: 'Oldest first', body: z.object({ data: z.array(client) }) } } },
  {
    method: 'post', path: '/api/admin/oauth-clients', ...admin, summary: 'Register a client (step-up)', body: createClientSchema,
    responses: { 201: { description: 'Registered: a confidential client\'s `client_secret` is shown this once', body: z.object({ client, client_secret: z.string().optional() }) } },
  },
  { method: 'patch', path: '/api/admin/oauth-clients/:id', ...admin, errors: [403, 404], summary: 'Change a client (step-up)', body: updateClientSchema, responses: { 200: { description: 'Changed', body: z.object({ client }) } } },
  { method: 'post', path: '/api/admin/oauth-clients/:id/secret', ...admin, errors: [403, 404], summary: 'A new secret for a confidential client (step-up): the old one stops working', responses: { 200: { description: 'Shown this once', body: z.object({ client, client_secret: z.string() }) } } },
  { method: 'delete', path: '/api/admin/oauth-clients/:id', ...admin, errors: [403, 404], summary: 'Delete a client with its grants and tokens (step-up)', responses: { 204: { description: 'Deleted' } } },
  { method: 'get', path: '/api/account/connected-apps', tag: connectedTag, auth: true, summary: 'The apps the person allowed', responses: { 200: { description: 'By name', body: z.object({ data: z.array(connectedApp) }) } } },
  { method: 'delete', path: '/api/account/connected-apps/:clientId', tag: connectedTag, auth: true, errors: [404], summary: 'Remove an app: its grants and tokens end at once', responses: { 204: { description: 'Removed' } } },
]
