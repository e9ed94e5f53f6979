/** The paginated object every list of the API answers with, under `data` (the client's DataTable reads it). */
export interface Paginated<T> {
  data: T[]
  current_page: number
  last_page: number
  per_page: number
  total: number
  path: string
  from: number | null
  to: number | null
}

/** One page of `total` rows, `size` a page, as `path` lists them. */
export function paginated<T>(rows: T[], total: number, page: number, size: number, path: string): Paginated<T> {
  const from = rows.length > 0 ? (page - 1) * size + 1 : null
  return {
    data: rows,
    current_page: page,
    last_page: Math.max(1, Math.ceil(total / size)),
    per_page: size,
    total,
    path,
    from,
    to: from === null ? null : from + rows.length - 1,
  }
}
