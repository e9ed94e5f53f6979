import type { CredentialEventKind } from '../../kernel/index.js'

/** The invitations' events, recorded through the security core with `meta.teamId` like the teams' others. */
export const invitationEvents = {
  /** The inviter's: who asked for a link to be mailed, to which team and with which role. */
  sent: { type: 'invitation_sent' },
  /** The new member's: the link was used by the account it was meant for. */
  accepted: { type: 'invitation_accepted' },
} as const satisfies Record<string, CredentialEventKind>
