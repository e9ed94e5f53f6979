import type { RequestHandler } from 'express'
import { events, idField, notFound, recordCredentialEvent, User, type AppContext } from '../../../kernel/index.js'

/** "Sign out everywhere" for a user: every session and its access token, at once. */
export function revokeUserSessions(ctx: AppContext): RequestHandler {
  return async (req, res) => {
    const id = idField.safeParse(req.params.id)
    if (!id.success || !(await User.findByPk(id.data, { attributes: ['id'] }))) throw notFound()
    await recordCredentialEvent(ctx, events.sessionsRevoked, id.data, { req, revoke: 'all', meta: { scope: 'all', by: req.auth!.id } })
    res.status(204).end()
  }
}
