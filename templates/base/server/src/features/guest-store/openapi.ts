import { z } from 'zod'
import type { RouteDoc } from '../../kernel/index.js'
import { updateSessionSchema } from './controllers/update-session.js'

const guestSession = z.object({ id: z.string().nullable(), enabled: z.boolean(), data: z.record(z.string(), z.unknown()) })

/** `/api/session`: the guest store. */
export function guestStoreRouteDocs(): RouteDoc[] {
  return [
    { method: 'get', path: '/api/session', tag: 'Guest session', summary: 'The guest session', responses: { 200: { description: 'Its values', body: guestSession } } },
    { method: 'patch', path: '/api/session', tag: 'Guest session', summary: 'Set values of the guest session', body: updateSessionSchema, responses: { 200: { description: 'Its values', body: guestSession } }, errors: [429] },
  ]
}
