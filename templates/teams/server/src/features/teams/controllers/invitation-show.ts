import type { RequestHandler } from 'express'
import { z } from 'zod'
import { findUserById, tokenField, User, validate } from '../../../kernel/index.js'
import { Team } from '../models/team.js'
import { findInvitation, invalidInvitation } from '../services/invitations.js'

export const showInvitationSchema = z.object({ token: tokenField })

/**
 * What the mail leaves out: the team's name and the sender's, both the sender's text, shown only
 * to the account that could accept (signed in, its verified address the invited one), in the
 * token's body rather than a URL. Every refusal is accept's one 422 on `token`.
 */
export function showInvitation(): RequestHandler {
  return async (req, res) => {
    const { token } = validate(showInvitationSchema, req.body)
    const invitation = await findInvitation(token)
    if (!invitation) throw invalidInvitation()
    const user = await User.findByPk(req.auth!.id, { attributes: ['id', 'email', 'emailVerifiedAt'] })
    if (!user || user.emailVerifiedAt === null || user.email !== invitation.email) throw invalidInvitation()
    const [team, inviter] = await Promise.all([Team.findByPk(invitation.teamId), findUserById(invitation.invitedBy)])
    if (!team || !inviter) throw invalidInvitation()
    res.json({ invitation: { team: { name: team.name }, inviter: { name: inviter.name }, role: invitation.role } })
  }
}
