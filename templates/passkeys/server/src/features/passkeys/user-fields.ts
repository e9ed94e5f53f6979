import type { UserFields } from '../types/user-fields.js'

declare module '../../services/user-json.js' {
  interface FeatureUserJson {
    /** How many passkeys the user has registered. */
    passkeys: number
  }
  interface FeatureUserRow {
    passkeyCount: number | string
  }
}

export const userFields: UserFields = {
  columns: ['u."passkeyCount"'],
  fromRow: (row) => ({ passkeys: Number(row.passkeyCount) }),
  fromModel: (user) => ({ passkeys: user.passkeyCount }),
}
