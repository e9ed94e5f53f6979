/**
 * The credential event types this app records. A feature layer adds its own by augmenting this
 * interface from a file of its own (`declare module '../security/events.js'`), so the type of
 * an event stays checked without base knowing the feature.
 */
export interface CredentialEventTypes {
  sign_in: true
  sign_in_failed: true
  sign_out: true
  sessions_revoked: true
  password_changed: true
  password_reset: true
  email_change_requested: true
  email_changed: true
  role_changed: true
  new_device: true
  account_deleted: true
}

export type CredentialEventType = keyof CredentialEventTypes

/** The mail the account's owner gets for an event (job `user:security-notice`). */
export interface Notice {
  subject: string
  /** What happened, in one sentence; the mail adds when, from which device and address, and the link. */
  summary: string
}

/** An event as the code that raises it names it: its type, and the notice it sends, if any. */
export interface CredentialEventKind {
  type: CredentialEventType
  notice?: Notice
}

export const events = {
  signIn: { type: 'sign_in' },
  signInFailed: { type: 'sign_in_failed' },
  signOut: { type: 'sign_out' },
  sessionsRevoked: { type: 'sessions_revoked' },
  passwordChanged: {
    type: 'password_changed',
    notice: { subject: 'Your password was changed', summary: 'The password of your account was changed, and your other sessions were signed out.' },
  },
  passwordReset: {
    type: 'password_reset',
    notice: { subject: 'Your password was reset', summary: 'The password of your account was reset through a link mailed to you, and every session was signed out.' },
  },
  emailChangeRequested: { type: 'email_change_requested' },
  emailChanged: {
    type: 'email_changed',
    notice: { subject: 'The e-mail address of your account was changed', summary: 'The e-mail address of your account was changed: mail for it now goes to the new address, not this one.' },
  },
  roleChanged: { type: 'role_changed' },
  newDevice: {
    type: 'new_device',
    notice: { subject: 'New sign-in to your account', summary: 'Your account was signed in to from a device and network it has not used in the last 90 days.' },
  },
  accountDeleted: { type: 'account_deleted' },
} as const satisfies Record<string, CredentialEventKind>
