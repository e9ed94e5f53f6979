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
