// The shapes of a user on its way out: the JSON the API answers with, and the raw row the hot
// paths select to build it (services/users.ts). Types only, importing nothing: the feature
// layers' `user-fields.ts` declare what they add here.

/** Feature layers declare what they add to a user's JSON here (and fill it in their `user-fields.ts`). */
export interface FeatureUserJson {}

export interface UserJson extends FeatureUserJson {
  id: number
  name: string
  email: string
  roleId: number | null
  role: string | null
  emailVerifiedAt: string | null
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
  createdAt: Date | string
  updatedAt: Date | string
}
