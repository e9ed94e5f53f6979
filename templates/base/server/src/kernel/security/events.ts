/**
 * Base's credential event types. A feature layer's are its own: the kinds of its `events`
 * object (`as const satisfies Record<string, CredentialEventKind>`), which its manifest lists
 * (kernel/feature.ts `events`, `EventTypesOf`), so the type of an event stays checked without base
 * knowing the feature.
 */
export type CredentialEventType = (typeof events)[keyof typeof events]['type']

/** The mail the account's owner gets for an event (job `user:security-notice`). */
export interface Notice {
  /** Catalogue keys (i18n/messages/): the job puts them into the recipient's language. */
  subject: string
  /** What happened, in one sentence; the mail adds when, from which device and address, and the link. */
  summary: string
}

/** An event as the code that raises it names it: its type, and the notice it sends, if any. */
export interface CredentialEventKind {
  /** `snake_case`; base's are `CredentialEventType`, a layer's are its own object's. */
  type: string
  notice?: Notice
}

export const events = {
  signIn: { type: 'sign_in' },
  signInFailed: { type: 'sign_in_failed' },
  signOut: { type: 'sign_out' },
  sessionsRevoked: { type: 'sessions_revoked' },
  passwordChanged: {
    type: 'password_changed',
    notice: { subject: 'notices.passwordChanged.subject', summary: 'notices.passwordChanged.summary' },
  },
  passwordReset: {
    type: 'password_reset',
    notice: { subject: 'notices.passwordReset.subject', summary: 'notices.passwordReset.summary' },
  },
  emailChangeRequested: { type: 'email_change_requested' },
  emailChanged: {
    type: 'email_changed',
    notice: { subject: 'notices.emailChanged.subject', summary: 'notices.emailChanged.summary' },
  },
  roleChanged: { type: 'role_changed' },
  newDevice: {
    type: 'new_device',
    notice: { subject: 'notices.newDevice.subject', summary: 'notices.newDevice.summary' },
  },
  accountDeleted: { type: 'account_deleted' },
  /** An admin suspended the account (every session, key and grant ended; `meta`: by whom, until when, why) or lifted it. */
  userSuspended: { type: 'user_suspended' },
  userUnsuspended: { type: 'user_unsuspended' },
  /** An admin signed in as the user (`meta.by`): the one notice the user gets of an impersonation. */
  impersonationStarted: {
    type: 'impersonation_started',
    notice: { subject: 'notices.impersonationStarted.subject', summary: 'notices.impersonationStarted.summary' },
  },
  impersonationEnded: { type: 'impersonation_ended' },
  /** A wrong password, code or passkey where the app asked to confirm it's you (step-up); `meta.method` says which. */
  confirmationFailed: { type: 'confirmation_failed' },
  /** The acting admin's: where the app's events go changed. `meta` names the endpoint by id and origin, never its secret. */
  webhookEndpointCreated: { type: 'webhook_endpoint_created' },
  webhookEndpointUpdated: { type: 'webhook_endpoint_updated' },
  webhookEndpointDeleted: { type: 'webhook_endpoint_deleted' },
} as const satisfies Record<string, CredentialEventKind>
