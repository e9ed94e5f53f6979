import type { LocationQuery } from 'vue-router'

export interface ListQuery {
  page: number
  size: number
  search: string
  /** `name` or `-name` (descending); empty for the API's default order. */
  sort: string
  /** From `filter[key]=value`; empty values left out. */
  filter: Record<string, string>
}

const one = (value: LocationQuery[string] | undefined) => (Array.isArray(value) ? value[0] : value) ?? undefined

function int(value: LocationQuery[string], fallback: number, max = Number.MAX_SAFE_INTEGER) {
  const n = Number(one(value))
  return Number.isInteger(n) && n >= 1 && n <= max ? n : fallback
}

/** The list state in the route query, with its defaults: page 1, size 10, no search. */
export function listQuery(query: LocationQuery): ListQuery {
  const filter: Record<string, string> = {}
  for (const key of Object.keys(query)) {
    const name = /^filter\[(\w+)\]$/.exec(key)?.[1]
    const value = one(query[key])
    if (name && value) filter[name] = value
  }
  return {
    page: int(query.page, 1),
    size: int(query.size, 10, 100),
    search: one(query.search) ?? '',
    sort: one(query.sort) ?? '',
    filter,
  }
}

/** The API's query for a list: the route's, with `filter[key]` flat as the server reads it. */
export function apiQuery({ filter, sort, ...rest }: ListQuery): Record<string, string | number> {
  const out: Record<string, string | number> = { ...rest }
  if (sort) out.sort = sort
  for (const [key, value] of Object.entries(filter)) out[`filter[${key}]`] = value
  return out
}

/** Only our own paths: `?redirect=https://evil.example` must not leave the app. */
export function safeRedirect(value: LocationQuery[string] | undefined, fallback = '/dashboard'): string {
  const path = one(value)
  return path && path.startsWith('/') && !path.startsWith('//') && !path.startsWith('/\\') ? path : fallback
}

/**
 * What the login and register pages pass on to each other: the address a link filled in and the
 * page to go to once signed in, so a visitor who picks the other page keeps both.
 */
export function signInQuery(query: LocationQuery): Record<string, string> {
  const out: Record<string, string> = {}
  for (const key of ['email', 'redirect']) {
    const value = one(query[key])
    if (value) out[key] = value
  }
  return out
}
