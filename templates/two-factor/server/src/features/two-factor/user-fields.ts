import type { UserFields } from '../types/user-fields.js'

declare module '../../services/user-json.js' {
  interface FeatureUserJson {
    twoFactorEnabled: boolean
  }
  interface FeatureUserRow {
    twoFactorConfirmedAt: Date | string | null
  }
}

export const userFields: UserFields = {
  columns: ['u."twoFactorConfirmedAt"'],
  fromRow: (row) => ({ twoFactorEnabled: Boolean(row.twoFactorConfirmedAt) }),
  fromModel: (user) => ({ twoFactorEnabled: Boolean(user.twoFactorConfirmedAt) }),
}
