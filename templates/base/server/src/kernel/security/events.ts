/**
 * The credential event types this app records. A feature layer adds its own by augmenting this
 * interface from a file of its own (`declare module './events.js'`), so the type of
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
  confirmation_failed: true
  webhook_endpoint_created: true
  webhook_endpoint_updated: true
  webhook_endpoint_deleted: true
}

export type CredentialEventType = keyof CredentialEventTypes

/** The mail the account's owner gets for an event (job `user:security-notice`). */
export interface Notice {
  /** Catalogue keys (i18n/messages/): the job puts them into the recipient's language. */
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
  /** A wrong password, code or passkey where the app asked to confirm it's you (step-up); `meta.method` says which. */
  confirmationFailed: { type: 'confirmation_failed' },
  /** The acting admin's: where the app's events go changed. `meta` names the endpoint by id and origin, never its secret. */
  webhookEndpointCreated: { type: 'webhook_endpoint_created' },
  webhookEndpointUpdated: { type: 'webhook_endpoint_updated' },
  webhookEndpointDeleted: { type: 'webhook_endpoint_deleted' },
} as const satisfies Record<string, CredentialEventKind>
