import type { MailMessage } from './mailer.js'

const escapeHtml = (value: string) =>
  value.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] ?? c)

/** A mail in the app's one layout: lines of text, then at most one action link (a feature layer's mails too). */
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

export const verifyEmailMessage = (to: string, name: string, url: string, hours: number) =>
  message(
    to,
    'Verify your e-mail address',
    [`Hello ${name},`, `Please confirm your e-mail address. The link expires in ${hours} hours.`, 'If you did not create an account, ignore this message.'],
    { label: 'Verify e-mail address', url },
  )

export const resetPasswordMessage = (to: string, name: string, url: string, minutes: number) =>
  message(
    to,
    'Reset your password',
    [`Hello ${name},`, `Someone asked to reset your password. The link expires in ${minutes} minutes.`, 'If it was not you, ignore this message: your password stays as it is.'],
    { label: 'Reset password', url },
  )

/**
 * A registration link that sets no password: sent when the address already had a registration
 * or an account, so no mailbox ever holds a link that sets a password someone else chose. `name`:
 * the account's own, or null for a plain greeting (services/email-verification.ts says whose).
 */
export const chooseLinkMessage = (to: string, name: string | null, url: string, hours: number, accountExists: boolean) =>
  message(
    to,
    accountExists ? 'You already have an account' : 'Finish signing up',
    [
      name === null ? 'Hello,' : `Hello ${name},`,
      accountExists
        ? 'Someone tried to sign up or asked for a verification link with this e-mail address, which already has an account.'
        : 'Someone signed up again with this e-mail address before it was verified, so the earlier links no longer work.',
      `If it was you, choose your password with the link below to ${accountExists ? 'sign in' : 'finish signing up'}. It expires in ${hours} hours.`,
      'If it was not you, ignore this message: nothing changes.',
    ],
    { label: 'Choose a password', url },
  )

export const confirmEmailChangeMessage = (to: string, name: string, url: string, hours: number) =>
  message(
    to,
    'Confirm your new e-mail address',
    [`Hello ${name},`, `Please confirm that this is the new e-mail address of your account. The link expires in ${hours} hours.`, 'If you did not ask for this, ignore this message: nothing changes.'],
    { label: 'Confirm e-mail address', url },
  )

/** To the current address when a change is asked for: the owner learns of it before anything changes. */
export const emailChangeRequestedMessage = (to: string, name: string, newEmail: string, passwordUrl: string) =>
  message(
    to,
    'A change of your e-mail address was requested',
    [
      `Hello ${name},`,
      `Someone signed in to your account asked to change its e-mail address to ${newEmail}. Nothing changes until the link sent there is used.`,
      `If it was not you, change your password at ${passwordUrl} now: that also signs out every other session.`,
    ],
  )

/** To an address that already has an account, instead of a confirmation link. */
export const emailTakenMessage = (to: string, name: string) =>
  message(
    to,
    'Someone tried to use your e-mail address',
    [
      `Hello ${name},`,
      'Someone asked to move another account to this e-mail address, which already belongs to your account. Nothing was changed.',
      'If it was you, use a different address for the other account.',
    ],
  )

/** A credential event's notice (security/notices.ts): what happened, when, from where, and where to look. */
export const securityNoticeMessage = (
  to: string,
  name: string,
  notice: { subject: string; summary: string },
  event: { when: Date; device: string; ip: string | null; activityUrl: string },
) =>
  message(
    to,
    notice.subject,
    [
      `Hello ${name},`,
      notice.summary,
      `When: ${event.when.toUTCString()}`,
      `Device: ${event.device}`,
      `Address: ${event.ip ?? 'unknown'}`,
      `If this was you, there is nothing to do. If it was not, review your account's activity, change your password and sign out every other session at ${event.activityUrl}`,
    ],
    { label: 'Review security activity', url: event.activityUrl },
  )
