// The shapes of a user on its way out: the JSON the API answers with, and the raw row the hot
// paths select to build it (kernel/services/users.ts). Types only: the feature layers declare what they
// add here.
import type { AuthIdentity } from '../http/request.js'
import type { Locale } from '../i18n/locales.js'

/** Feature layers declare what they add to a user's JSON here (and fill it in their `user-fields.ts`). */
export interface FeatureUserJson {}

export interface UserJson extends FeatureUserJson {
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
}

/** Feature layers declare the columns they select here. */
export interface FeatureUserRow {}

export interface UserRow extends FeatureUserRow {
  id: number
  name: string
  email: string
  roleId: number | null
  role: string | null
  emailVerifiedAt: Date | string | null
  locale: string | null
  createdAt: Date | string
  updatedAt: Date | string
}

/** What a sign-in needs of a user: the hash to check, and the JSON and identity it answers with. */
export interface SignInUser {
  /** Null for an account without a password: no password signs it in (kernel/auth/passwords.ts). */
  passwordHash: string | null
  json: UserJson
  identity: AuthIdentity
}
