import type { RequestHandler } from 'express'
import type { AppContext } from '../../kernel/context.js'
import { notFound } from '../../kernel/http/errors.js'
import { idField } from '../../kernel/http/schemas.js'
import { User } from '../../kernel/models/index.js'
import { recordCredentialEvent } from '../../kernel/security/credential-events.js'
import { events } from '../../kernel/security/events.js'

/** "Sign out everywhere" for a user: every session and its access token, at once. */
export function revokeUserSessions(ctx: AppContext): RequestHandler {
  return async (req, res) => {
    const id = idField.safeParse(req.params.id)
    if (!id.success || !(await User.findByPk(id.data, { attributes: ['id'] }))) throw notFound()
    await recordCredentialEvent(ctx, events.sessionsRevoked, id.data, { req, revoke: 'all', meta: { scope: 'all', by: req.auth!.id } })
    res.status(204).end()
  }
}
