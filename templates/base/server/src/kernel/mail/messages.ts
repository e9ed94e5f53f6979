import type { Locale } from '../i18n/locales.js'
import type { Translate } from '../i18n/translate.js'
import type { MailMessage } from './mailer.js'

const escapeHtml = (value: string) =>
  value.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] ?? c)

/**
 * A mail in the app's one layout: lines of text, then at most one action link (a feature layer's
 * mails too). The texts come from the catalogues, in the recipient's language (`t`).
 */
export function message(to: string, subject: string, lines: string[], action?: { label: string; url: string }): MailMessage {
  const text = [...lines, ...(action ? ['', `${action.label}: ${action.url}`] : [])].join('\n')
  const html = [
    ...lines.map((line) => `<p>${escapeHtml(line)}</p>`),
    ...(action ? [`<p><a href="${escapeHtml(action.url)}">${escapeHtml(action.label)}</a></p>`] : []),
  ].join('\n')
  return { to, subject, text, html }
}

/** A page of the client (`verify-email`, `reset-password`, a layer's own) with a mailed token and the address it went to. */
export function linkWithToken(baseUrl: string, page: string, token: string, email: string): string {
  const query = new URLSearchParams({ token, email })
  return `${baseUrl}/${page}?${query.toString()}`
}

export const greeting = (t: Translate, name: string | null) => (name === null ? t('mail.helloNobody') : t('mail.hello', { name }))

/**
 * Greets nobody by name: anyone may register with another person's address, and the name of a
 * registration is the registrant's text.
 */
export const verifyEmailMessage = (t: Translate, to: string, url: string, hours: number) =>
  message(
    to,
    t('mail.verify.subject'),
    [greeting(t, null), t('mail.verify.body', { hours }), t('mail.verify.ignore')],
    { label: t('mail.verify.action'), url },
  )

export const resetPasswordMessage = (t: Translate, to: string, name: string, url: string, minutes: number) =>
  message(
    to,
    t('mail.reset.subject'),
    [greeting(t, name), t('mail.reset.body', { minutes }), t('mail.reset.ignore')],
    { label: t('mail.reset.action'), url },
  )

/**
 * A registration link that sets no password: sent when the address already had a registration
 * or an account, so no mailbox ever holds a link that sets a password someone else chose. `name`:
 * the account's own, or null for a plain greeting (kernel/services/email-verification.ts says whose).
 */
export const chooseLinkMessage = (t: Translate, to: string, name: string | null, url: string, hours: number, accountExists: boolean) =>
  message(
    to,
    t(accountExists ? 'mail.choose.subjectAccount' : 'mail.choose.subjectPending'),
    [
      greeting(t, name),
      t(accountExists ? 'mail.choose.bodyAccount' : 'mail.choose.bodyPending'),
      t(accountExists ? 'mail.choose.chooseAccount' : 'mail.choose.choosePending', { hours }),
      t('mail.choose.ignore'),
    ],
    { label: t('mail.choose.action'), url },
  )

/** To the new address, which the account's owner typed: it greets nobody by the account's name, that owner's text. */
export const confirmEmailChangeMessage = (t: Translate, to: string, url: string, hours: number) =>
  message(
    to,
    t('mail.confirmEmail.subject'),
    [greeting(t, null), t('mail.confirmEmail.body', { hours }), t('mail.confirmEmail.ignore')],
    { label: t('mail.confirmEmail.action'), url },
  )

/** To the current address when a change is asked for: the owner learns of it before anything changes. */
export const emailChangeRequestedMessage = (t: Translate, to: string, name: string, newEmail: string, passwordUrl: string) =>
  message(to, t('mail.emailChangeRequested.subject'), [
    greeting(t, name),
    t('mail.emailChangeRequested.body', { email: newEmail }),
    t('mail.emailChangeRequested.notYou', { url: passwordUrl }),
  ])

/** To an address that already has an account, instead of a confirmation link. */
export const emailTakenMessage = (t: Translate, to: string, name: string) =>
  message(to, t('mail.emailTaken.subject'), [greeting(t, name), t('mail.emailTaken.body'), t('mail.emailTaken.ifYou')])

/** A credential event's notice (kernel/security/notices.ts): what happened, when, from where, and where to look. */
export const securityNoticeMessage = (
  t: Translate,
  locale: Locale,
  to: string,
  name: string,
  notice: { subject: string; summary: string },
  event: { when: Date; device: string; ip: string | null; activityUrl: string },
) =>
  message(
    to,
    t(notice.subject),
    [
      greeting(t, name),
      t(notice.summary),
      t('mail.notice.when', { when: new Intl.DateTimeFormat(locale, { dateStyle: 'full', timeStyle: 'long', timeZone: 'UTC' }).format(event.when) }),
      t('mail.notice.device', { device: event.device }),
      t('mail.notice.address', { ip: event.ip ?? t('mail.notice.unknownAddress') }),
      t('mail.notice.review', { url: event.activityUrl }),
    ],
    { label: t('mail.notice.action'), url: event.activityUrl },
  )

/**
 * To a user an admin suspended: until when (null: until an admin lifts it) and the admin's reason.
 * No link: the account cannot sign in.
 */
export const suspendedMessage = (t: Translate, to: string, name: string, until: string | null, reason: string) =>
  message(to, t('mail.suspended.subject'), [
    greeting(t, name),
    until === null ? t('mail.suspended.body') : t('mail.suspended.bodyUntil', { until }),
    t('mail.suspended.reason', { reason }),
    t('mail.suspended.contact'),
  ])
