import type { RequestHandler } from 'express'
import { idField, notFound } from '../../../kernel/index.js'
import { revokeInvitation } from '../services/invitations.js'

/** Its link dies at once. An id that is not one of this team's invitations, or no id at all, is 404 alike. */
export function revokeInvitationRoute(): RequestHandler {
  return async (req, res) => {
    const id = idField.safeParse(req.params.invitationId)
    if (!id.success || !(await revokeInvitation(req.team!.id, id.data))) throw notFound()
    res.status(204).end()
  }
}
