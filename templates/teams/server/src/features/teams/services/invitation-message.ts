import type { Translate } from '../../../i18n/translate.js'
import { message } from '../../../mail/messages.js'
import type { InvitationRole } from '../models/invitation.js'

/**
 * The invitation mail. The subject names no team: a team's name is anyone's text, and a subject
 * of a stranger's choosing is what makes invitation mails useful to spammers.
 */
export const invitationMessage = (t: Translate, to: string, inviter: string, team: string, role: InvitationRole, url: string, days: number) =>
  message(
    to,
    t('teamMail.subject'),
    [
      t('mail.helloNobody'),
      t(role === 'admin' ? 'teamMail.bodyAdmin' : 'teamMail.bodyMember', { inviter, team, days }),
      t('teamMail.accept'),
      t('teamMail.ignore'),
    ],
    { label: t('teamMail.action'), url },
  )
