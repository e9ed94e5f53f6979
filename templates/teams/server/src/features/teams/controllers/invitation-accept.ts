import type { RequestHandler } from 'express'
import { z } from 'zod'
import { type AppContext, HttpError, recordCredentialEvent, tokenField, User, validate } from '../../../kernel/index.js'
import { teamEvents, teamMeta } from '../events.js'
import { invitationEvents } from '../invitation-events.js'
import { Team } from '../models/team.js'
import { findInvitation, invalidInvitation, useInvitation } from '../services/invitations.js'
import { teamJson } from '../services/team-json.js'
import { withTeamLocked } from '../services/team-lock.js'

export const acceptInvitationSchema = z.object({ token: tokenField })

/**
 * Signed in only: the link names a team and a role, and the signed-in account proves the address
 * (services/invitations.ts useInvitation). Every refusal is the same 422 on `token`. The joined
 * team becomes the current one, in the same transaction as the membership and the events.
 */
export function acceptInvitation(ctx: AppContext): RequestHandler {
  return async (req, res) => {
    const { token } = validate(acceptInvitationSchema, req.body)
    const userId = req.auth!.id
    const invitation = await findInvitation(token)
    if (!invitation) throw invalidInvitation()
    const { teamId } = invitation
    const accepted = await withTeamLocked(teamId, async (transaction) => {
      const { role, joined } = await useInvitation(invitation, userId, transaction)
      await User.update({ currentTeamId: teamId }, { where: { id: userId }, transaction })
      const meta = teamMeta(teamId, { role })
      await recordCredentialEvent(ctx, invitationEvents.accepted, userId, { req, meta, transaction })
      if (joined) await recordCredentialEvent(ctx, teamEvents.memberAdded, userId, { req, meta, transaction })
      const team = await Team.findByPk(teamId, { transaction })
      return teamJson({ id: teamId, name: team!.name, personal: team!.personalUserId !== null }, role)
    }, [userId]).catch((error: unknown) => {
      // The team was deleted since the link was read: the link died with it.
      throw error instanceof HttpError && error.status === 404 ? invalidInvitation() : error
    })
    res.json({ team: accepted })
  }
}
