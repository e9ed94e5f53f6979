import type { LocationQuery } from 'vue-router'

export interface ListQuery {
  page: number
  size: number
  search: string
}

const one = (value: LocationQuery[string] | undefined) => (Array.isArray(value) ? value[0] : value) ?? undefined

function int(value: LocationQuery[string], fallback: number, max = Number.MAX_SAFE_INTEGER) {
  const n = Number(one(value))
  return Number.isInteger(n) && n >= 1 && n <= max ? n : fallback
}

/** The list state in the route query, with the spec's defaults: page 1, size 10, no search. */
export function listQuery(query: LocationQuery): ListQuery {
  return {
    page: int(query.page, 1),
    size: int(query.size, 10, 100),
    search: one(query.search) ?? '',
  }
}

/** Only our own paths: `?redirect=https://evil.example` must not leave the app. */
export function safeRedirect(value: LocationQuery[string] | undefined, fallback = '/dashboard'): string {
  const path = one(value)
  return path && path.startsWith('/') && !path.startsWith('//') && !path.startsWith('/\\') ? path : fallback
}
