import { z } from 'zod'
import { sessionJson, type RouteDoc } from '../../kernel/index.js'
import { revokeOtherSessionsSchema } from './controllers/revoke-other-sessions.js'

const tag = 'Account'
// Every account route counts writes and wrong passwords per user (429); step-up answers 403 `errors.confirm`.
const account = { tag, auth: true, errors: [429] } as const
const stepUp = { tag, auth: true, errors: [403, 429] } as const
const none = (description: string) => ({ 204: { description } })

/** `/api/account/sessions`: the user's signed-in devices. */
export function sessionRouteDocs(): RouteDoc[] {
  return [
    { method: 'get', path: '/api/account/sessions', ...account, summary: 'The live sessions', responses: { 200: { description: 'The current one first', body: z.object({ data: z.array(sessionJson) }) } } },
    { method: 'delete', path: '/api/account/sessions', ...stepUp, summary: 'Sign out every other session', body: revokeOtherSessionsSchema, responses: none('Signed out') },
    { method: 'delete', path: '/api/account/sessions/:id', ...stepUp, summary: 'Sign out one session', responses: none('Signed out'), errors: [403, 404, 429] },
  ]
}
