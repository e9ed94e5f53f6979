import type { RequestHandler, Router } from 'express'
import { precognitive, requireConfirmed, type AppContext } from '../../kernel/index.js'
import { listAccountSessions } from './controllers/list-sessions.js'
import { revokeOtherSessions, revokeOtherSessionsSchema } from './controllers/revoke-other-sessions.js'
import { revokeAccountSession } from './controllers/revoke-session.js'

/** On /api/account: the user's own signed-in devices; ending one is step-up. */
export function sessionRoutes(router: Router, ctx: AppContext, passwordChecked: RequestHandler[]): void {
  const confirmed = (passwordField?: string) => [...passwordChecked, requireConfirmed(ctx, { passwordField })]
  router.get('/sessions', listAccountSessions())
  router.delete('/sessions', precognitive(revokeOtherSessionsSchema), ...confirmed('password'), revokeOtherSessions(ctx))
  router.delete('/sessions/:id', ...confirmed(), revokeAccountSession(ctx))
}
