import { z } from 'zod'
import { type RouteDoc, timestamp } from '../../kernel/index.js'
import { startConfirmationSchema } from './controllers/start-confirmation.js'
import { startSignInSchema } from './controllers/start-sign-in.js'

const tag = 'Sign in with a provider'
const redirect = { 302: { description: 'To the provider, or back to the app with `?error=<code>`' } }
const providerUrl = z.object({ url: z.string() })

/** The oauth layer's routes (its providers' layers add none). */
export const routeDocs: RouteDoc[] = [
  { method: 'get', path: '/api/auth/oauth', tag, summary: 'The providers offered', responses: { 200: { description: 'Their ids and names', body: z.object({ data: z.array(z.object({ provider: z.string(), name: z.string() })) }) } } },
  { method: 'get', path: '/api/auth/oauth/:provider', tag, summary: 'Start signing in with a provider', query: startSignInSchema, errors: [404, 429], responses: redirect },
  { method: 'get', path: '/api/auth/oauth/:provider/callback', tag, summary: "The provider's answer", errors: [429], responses: { 302: { description: 'Signed in and on to `redirect`, or to `/login?error=<code>`' } } },
  {
    method: 'get', path: '/api/account/connections', tag, auth: true, errors: [429], summary: 'The linked providers',
    responses: { 200: { description: 'One row a provider', body: z.object({ data: z.array(z.object({ provider: z.string(), email: z.string().nullable(), createdAt: timestamp })) }) } },
  },
  { method: 'post', path: '/api/account/connections/:provider', tag, auth: true, errors: [403, 404, 429], summary: 'Link a provider', responses: { 200: { description: "The provider's address to go to", body: providerUrl } } },
  // The account's last way to sign in stays (422).
  { method: 'delete', path: '/api/account/connections/:provider', tag, auth: true, errors: [403, 404, 422, 429], summary: 'Unlink a provider', responses: { 204: { description: 'Unlinked' } } },
  {
    method: 'post', path: '/api/account/confirm/provider/:provider', tag, auth: true, errors: [404, 429], summary: 'Confirm it is you through a linked provider', body: startConfirmationSchema,
    responses: { 200: { description: "The provider's address to go to", body: providerUrl } },
  },
]
