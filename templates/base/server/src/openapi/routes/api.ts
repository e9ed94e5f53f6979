import { z } from 'zod'
import type { AppContext } from '../../kernel/context.js'
import { updateSessionSchema } from '../../controllers/session/update-session.js'
import type { RouteDoc } from '../../kernel/openapi/types.js'

const probe = z.enum(['ok', 'error'])
const health = z.object({ status: z.enum(['ok', 'error']), db: probe, redis: z.enum(['ok', 'error', 'disabled']) })
const guestSession = z.object({ id: z.string().nullable(), enabled: z.boolean(), data: z.record(z.string(), z.unknown()) })

/** What the API itself serves: health, the guest session, and this document. */
export function apiRouteDocs(ctx: AppContext): RouteDoc[] {
  const docs: RouteDoc[] = [
    {
      method: 'get', path: '/api/health', tag: 'Health', summary: 'Whether the database and Redis answer',
      responses: { 200: { description: 'Everything answers', body: health }, 503: { description: 'A dependency does not answer', body: health } },
    },
    { method: 'get', path: '/api/session', tag: 'Guest session', summary: 'The guest session', responses: { 200: { description: 'Its values', body: guestSession } } },
    { method: 'patch', path: '/api/session', tag: 'Guest session', summary: 'Set values of the guest session', body: updateSessionSchema, responses: { 200: { description: 'Its values', body: guestSession } }, errors: [429] },
    { method: 'get', path: '/api/openapi.json', tag: 'API', summary: 'This document (OpenAPI 3.1)', responses: { 200: { description: 'The document', body: z.looseObject({ openapi: z.string() }) } } },
  ]
  if (ctx.env.API_DOCS) docs.push({ method: 'get', path: '/api/docs', tag: 'API', summary: 'The interactive reference of this document', responses: { 200: { description: 'A page', contentType: 'text/html' } } })
  return docs
}
