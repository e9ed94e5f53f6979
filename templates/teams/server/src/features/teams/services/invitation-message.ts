import { message } from '../../../mail/messages.js'
import type { InvitationRole } from '../models/invitation.js'

/**
 * The invitation mail. The subject names no team: a team's name is anyone's text, and a subject
 * of a stranger's choosing is what makes invitation mails useful to spammers.
 */
export const invitationMessage = (to: string, inviter: string, team: string, role: InvitationRole, url: string, days: number) =>
  message(
    to,
    'You are invited to join a team',
    [
      'Hello,',
      `${inviter} invited you to join the team "${team}" as ${role === 'admin' ? 'an admin' : 'a member'}. The link expires in ${days} days.`,
      'To accept, follow the link and sign in, or create an account, with this e-mail address.',
      'If you did not expect this invitation, ignore this message: nothing changes.',
    ],
    { label: 'Accept invitation', url },
  )
