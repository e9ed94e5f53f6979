import type { Locale } from '@/lib/i18n'

/** The list shape the API returns under `data` and the DataTable reads. */
export interface Paginated<T = Record<string, unknown>> {
  data: T[]
  current_page: number
  last_page: number
  per_page: number
  total: number
  path: string
  from?: number | null
  to?: number | null
}

/** Feature layers declare what they add to a user here (`declare module '@/types'`). */
export interface FeatureUserFields {}

export interface User extends FeatureUserFields {
  id: number
  name: string
  email: string
  roleId: number | null
  role: string | null
  emailVerifiedAt: string | null
  /** The language the user chose on the profile page; null follows the browser's. */
  locale: Locale | null
  createdAt: string
  updatedAt: string
}

export type RowId = string | number

/** The admin signed in as the current user (impersonation), as `GET /api/auth/me` names them. */
export interface Impersonator {
  id: number
  name: string
}

/** A user as the admins' list shows it: with its suspension, all null when none is in force. */
export interface AdminUser extends User {
  suspendedAt: string | null
  /** Null while suspended: until an admin lifts it. */
  suspendedUntil: string | null
  suspensionReason: string | null
}

/** One sign-in of the current user, as `GET /api/account/sessions` lists it. */
export interface AccountSession {
  id: RowId
  /** The session of this browser. */
  current: boolean
  /** Browser and system, e.g. "Chrome on Linux". */
  device: string
  ip: string | null
  createdAt: string
  lastUsedAt: string | null
  expiresAt: string
  remember: boolean
  /** Only on an admin's session as this user (impersonation): that admin's id. */
  impersonatorId?: number
}

/** The kinds of event every app records; feature layers and newer servers add their own. */
export type ActivityType =
  | 'sign_in'
  | 'sign_in_failed'
  | 'sign_out'
  | 'sessions_revoked'
  | 'password_changed'
  | 'password_reset'
  | 'email_change_requested'
  | 'email_changed'
  | 'role_changed'
  | 'new_device'
  | 'account_deleted'
  | 'confirmation_failed'
  | 'webhook_endpoint_created'
  | 'webhook_endpoint_updated'
  | 'webhook_endpoint_deleted'
  | 'user_suspended'
  | 'user_unsuspended'
  | 'impersonation_started'
  | 'impersonation_ended'

/** One security event of the current user, as `GET /api/account/activity` lists it, newest first. */
export interface AccountActivity {
  id: RowId
  // `string & {}` keeps the known names in the editor's completions.
  type: ActivityType | (string & {})
  /** Browser and system, e.g. "Chrome on Linux". */
  device: string
  ip: string | null
  createdAt: string
  /** Done by the session of this browser. */
  current: boolean
  /** The admin who was signed in as the user when it happened (impersonation), else null. */
  impersonatorId?: number | null
}

/** A webhook endpoint, as `/api/webhooks` lists it (its secret only in the answer that made it). */
export interface WebhookEndpoint {
  id: number
  url: string
  /** Event types, `*` or `prefix.*`. */
  events: string[]
  /** Failed too often in a row: its messages wait until `until`, then one is tried (null: flowing). */
  paused: { since: string; until: string | null; reason: string } | null
  createdAt: string
  updatedAt: string
}

/** One message to one endpoint, and how its attempts went. */
export interface WebhookDelivery {
  id: number
  event: string
  status: 'pending' | 'retrying' | 'delivered' | 'failed'
  attempts: number
  responseStatus: number | null
  createdAt: string
  deliveredAt: string | null
}
