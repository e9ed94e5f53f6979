// The shapes of a user on its way out: the JSON the API answers with, and the raw row the hot
// paths select to build it (kernel/services/users.ts). Types only. Base's fields: what a feature
// layer adds is typed by its own `userFields` (kernel/feature.ts `UserJsonOf`).
import type { AuthIdentity } from '../http/request.js'
import type { Locale } from '../i18n/locales.js'

/** A user as the API answers with it: base's fields, then the feature layers' (their `userFields`), unknown to the kernel. */
export interface UserJson {
  id: number
  name: string
  email: string
  roleId: number | null
  role: string | null
  emailVerifiedAt: string | null
  /** The language the user chose; null follows the browser's. */
  locale: Locale | null
  createdAt: string
  updatedAt: string
  readonly [field: string]: unknown
}

/** The row the hot paths select: base's columns, and the feature layers' (their `userFields.columns`), unknown to the kernel. */
export interface UserRow {
  id: number
  name: string
  email: string
  roleId: number | null
  role: string | null
  emailVerifiedAt: Date | string | null
  locale: string | null
  createdAt: Date | string
  updatedAt: Date | string
  readonly [column: string]: unknown
}

/** What a sign-in needs of a user: the hash to check, and the JSON and identity it answers with. */
export interface SignInUser {
  /** Null for an account without a password: no password signs it in (kernel/auth/passwords.ts). */
  passwordHash: string | null
  json: UserJson
  identity: AuthIdentity
}
