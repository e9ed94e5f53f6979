// The type of an extension point (features/types/<point>.ts, filled by features/<layer>/<point>.ts).
import type { User } from '../../models/user.js'
import type { UserJson, UserRow } from '../../services/user-json.js'

/** `user-fields.ts`: what a user's JSON carries for the layer (declare the fields on `FeatureUserJson` and the columns on `FeatureUserRow`). */
export interface UserFields {
  /** Extra columns of the `users u` row the hot paths select, written as db/sql.ts quotes them. */
  columns: string[]
  fromRow(row: UserRow): Partial<UserJson>
  fromModel(user: User): Partial<UserJson>
}
