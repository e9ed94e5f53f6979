import type { LocationQueryRaw } from 'vue-router'
import type { Query, QueryValue } from './types'

const present = (v: QueryValue): v is string | number | boolean => v !== null && v !== undefined

/** `a=1&tags=x&tags=y`: the same repeated-key form vue-router writes, so API and route agree. */
export function buildQuery(query: Query = {}): string {
  const params = new URLSearchParams()
  for (const [key, value] of Object.entries(query)) {
    for (const v of Array.isArray(value) ? value : [value]) if (present(v)) params.append(key, String(v))
  }
  return params.toString()
}

export function withQuery(url: string, query?: Query): string {
  const qs = buildQuery(query)
  return qs ? `${url}${url.includes('?') ? '&' : '?'}${qs}` : url
}

export function toRouteQuery(query: Query = {}): LocationQueryRaw {
  const out: LocationQueryRaw = {}
  for (const [key, value] of Object.entries(query)) {
    if (Array.isArray(value)) out[key] = value.filter(present).map(String)
    else if (present(value)) out[key] = String(value)
  }
  return out
}
