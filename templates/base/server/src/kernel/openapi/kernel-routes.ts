import { z } from 'zod'
import type { AppContext } from '../context.js'
import { confirmPasswordSchema } from '../auth/confirm-identity.js'
import { layerConfirmMethods } from '../security/confirmation.js'
import { meBody, timestamp } from './schemas.js'
import type { RouteDoc } from './types.js'

const probe = z.enum(['ok', 'error'])
const health = z.object({ status: z.enum(['ok', 'error']), db: probe, redis: z.enum(['ok', 'error', 'disabled']) })
// Every account route counts writes and wrong passwords per user (429).
const account = { tag: 'Account', auth: true, errors: [429] } as const

/** The kernel's own routes: health, who is signed in, step-up, and this document. */
export function kernelRouteDocs(ctx: AppContext): RouteDoc[] {
  // `{password}`, or the field of a layer's way to confirm (`{code}`).
  const confirmBody = confirmPasswordSchema.partial().extend(
    Object.fromEntries(layerConfirmMethods(ctx.features).flatMap((method) => (method.field ? [[method.field, z.string().optional()]] : []))),
  )
  const docs: RouteDoc[] = [
    {
      method: 'get', path: '/api/health', tag: 'Health', summary: 'Whether the database and Redis answer',
      responses: { 200: { description: 'Everything answers', body: health }, 503: { description: 'A dependency does not answer', body: health } },
    },
    { method: 'get', path: '/api/auth/me', tag: 'Authentication', summary: 'The signed-in user, and the admin signed in as them', auth: true, responses: { 200: { description: 'The user and the impersonating admin (null but while an admin is signed in as the user)', body: meBody } } },
    {
      method: 'get', path: '/api/account/confirm', ...account, summary: 'Whether this session is confirmed, and how it can confirm',
      responses: { 200: { description: 'The confirmation', body: z.object({ confirmed_until: timestamp.nullable(), methods: z.array(z.string()) }) } },
    },
    {
      method: 'post', path: '/api/account/confirm', ...account, summary: 'Confirm it is you (step-up)', body: confirmBody, precognitive: false,
      responses: { 200: { description: 'Confirmed until', body: z.object({ confirmed_until: timestamp }) } },
    },
    { method: 'get', path: '/api/openapi.json', tag: 'API', summary: 'This document (OpenAPI 3.1)', responses: { 200: { description: 'The document', body: z.looseObject({ openapi: z.string() }) } } },
  ]
  if (ctx.env.API_DOCS) docs.push({ method: 'get', path: '/api/docs', tag: 'API', summary: 'The interactive reference of this document', responses: { 200: { description: 'A page', contentType: 'text/html' } } })
  return docs
}
