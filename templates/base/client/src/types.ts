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

export interface User {
  id: number
  name: string
  email: string
  roleId: number | null
  role: string | null
  emailVerifiedAt: string | null
  createdAt: string
  updatedAt: string
}

export type RowId = string | number

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
}
