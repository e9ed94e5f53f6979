import type { Env } from '../config/env.js'
import type { Mailer } from '../mail/mailer.js'
import { mailLocale, type Locale } from '../i18n/locales.js'
import { translator } from '../i18n/translate.js'
import { securityNoticeMessage } from '../mail/messages.js'
import { SecurityEvent, User } from '../models/index.js'
import { deviceOf } from '../auth/sessions.js'
import type { Notice } from './events.js'

export interface NoticePayload extends Notice {
  eventId: number
  /** Another address than the account's (the old one, after an e-mail change). */
  to?: string
  /** The language of the request that raised the event, for an account without one of its own. */
  locale?: Locale
}

/**
 * The job `user:security-notice`: the event's own row says when, from which device and address;
 * the account gives the name and, unless the event says otherwise, the address. A user deleted
 * meanwhile gets nothing.
 */
export async function sendSecurityNotice(deps: { env: Env; mailer: Mailer }, notice: NoticePayload): Promise<void> {
  const event = await SecurityEvent.findByPk(notice.eventId)
  const user = event?.userId ? await User.findByPk(event.userId, { attributes: ['id', 'name', 'email', 'locale'] }) : null
  if (!event || !user) return
  const locale = mailLocale(user.locale, notice.locale)
  await deps.mailer.send(
    securityNoticeMessage(translator(locale), locale, notice.to ?? user.email, user.name, notice, {
      when: event.createdAt,
      // From the agent, not the stored line: rows written before device lines were confined to
      // known names may still hold an agent's free text.
      device: deviceOf(event.userAgent),
      ip: event.ip,
      activityUrl: `${deps.env.BASE_URL}/settings/security`,
    }),
  )
}
