import type { WhereOptions } from 'sequelize'
import type { CredentialToken, TokenModel } from '../../kernel/index.js'
import { TeamInvitation } from './models/invitation.js'

/**
 * The security core voids a user's pending tokens by `userId`; an invitation's user, to it, is
 * the member who sent it. So every event that ends the inviter's sessions (a password reset or
 * change, signing out everywhere, an admin's revocation, the account's deletion) voids the links
 * they sent: such an event is how an owner takes back a hijacked account, and an invitation sent
 * from the hijacked session would otherwise let the intruder's own address into the team
 * afterwards. The invitee's events void nothing: the link is not their credential, and using it
 * needs their live session and verified address anyway. Not `mailedTo`: the address it went to
 * is the invitee's, never the inviter's account's.
 */
const bySender = ({ userId, ...where }: Record<string, unknown>) => ({ ...where, invitedBy: userId }) as WhereOptions<TeamInvitation>
const sentInvitations: TokenModel = {
  name: TeamInvitation.name,
  destroy: ({ where, transaction }) => TeamInvitation.destroy({ where: bySender(where), transaction }),
  update: (values, { where, transaction }) => TeamInvitation.update(values, { where: bySender(where), transaction }),
}

/** Holding one (with the invited address verified) grants a place in a team, as a credential grants an account. */
export const invitationToken: CredentialToken = { model: sentInvitations, grants: 'credential', pending: true }
