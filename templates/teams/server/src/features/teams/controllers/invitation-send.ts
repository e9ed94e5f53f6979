import type { RequestHandler } from 'express'
import { z } from 'zod'
import { type AppContext, emailField, fieldError, mayMail, recordCredentialEvent, requestLocale, translatorOf, validate } from '../../../kernel/index.js'
import { teamMeta } from '../events.js'
import { dispatchTeamJob } from '../invitation-jobs.js'
import { invitationEvents } from '../invitation-events.js'
import { INVITATION_ROLES } from '../models/invitation.js'
import { startInvitation } from '../services/invitations.js'
import { withTeamLocked } from '../services/team-lock.js'

export const sendInvitationSchema = z.object({
  email: emailField,
  role: z.enum(INVITATION_ROLES, { error: 'teams.invitationRole' }),
})

/**
 * 202 with one message for every address: whether it has an account, or is a member already, is
 * decided by the job alone (services/invitations.ts), so the answer tells the inviter nothing.
 */
export function sendInvitation(ctx: AppContext): RequestHandler {
  return async (req, res) => {
    const input = validate(sendInvitationSchema, req.body)
    const team = req.team!
    if (team.personal) throw fieldError('team', 'teams.personalHasNoMembers')
    const invitedBy = req.auth!.id
    // Past the address's cap (kernel/services/mail-quota.ts) nothing is sent or stored, and the answer is the same.
    if (!(await mayMail(ctx, input.email))) {
      res.status(202).json({ message: translatorOf(req)('teams.invitationSent') })
      return
    }
    // Under the team's lock: two invitations of one address take turns on its (team, address) key.
    // The invitation, its job and its event stand or fall together; the job gets only the row's id.
    await withTeamLocked(team.id, async (transaction) => {
      const invitationId = await startInvitation({ teamId: team.id, email: input.email, role: input.role, invitedBy }, transaction)
      await dispatchTeamJob(ctx.queue, 'team:invitation', { invitationId, locale: requestLocale(req) }, transaction)
      await recordCredentialEvent(ctx, invitationEvents.sent, invitedBy, { req, meta: teamMeta(team.id, { role: input.role }), transaction })
    }, [invitedBy])
    res.status(202).json({ message: translatorOf(req)('teams.invitationSent') })
  }
}
