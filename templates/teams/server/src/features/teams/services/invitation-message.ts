import { message, type Translate } from '../../../kernel/index.js'
import type { InvitationRole } from '../models/invitation.js'

/**
 * The invitation mail. It names no team and no inviter, in the subject or the body: both are the
 * sender's text, and a stranger's text in mail from the app's own domain is what makes invitations
 * useful to phishers. `site` is BASE_URL's host, the app's own; the accept page names the team
 * and the inviter to the invited account once it has signed in.
 */
export const invitationMessage = (t: Translate, to: string, site: string, role: InvitationRole, url: string, days: number) =>
  message(
    to,
    t('teamMail.subject'),
    [
      t('mail.helloNobody'),
      t(role === 'admin' ? 'teamMail.bodyAdmin' : 'teamMail.bodyMember', { site, days }),
      t('teamMail.accept'),
      t('teamMail.ignore'),
    ],
    { label: t('teamMail.action'), url },
  )
