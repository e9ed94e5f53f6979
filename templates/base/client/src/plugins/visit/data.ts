import { toRaw } from 'vue'

/** structuredClone keeps File and Blob values, which JSON would lose; it cannot clone a proxy. */
export const clone = <T>(value: T): T => structuredClone(toRaw(value))

/** Plain objects and arrays: what is compared and sent field by field; other instances are values. */
const visitable = (value: unknown): value is object =>
  Array.isArray(value) || (typeof value === 'object' && value !== null && Object.getPrototypeOf(value) === Object.prototype)

export function isEqual(a: unknown, b: unknown): boolean {
  if (Object.is(a, b)) return true
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false
  if (a instanceof Date && b instanceof Date) return a.getTime() === b.getTime()
  // Files, Blobs and other instances count as changed unless they are the very same object.
  if (!visitable(a) || !visitable(b) || Array.isArray(a) !== Array.isArray(b)) return false
  const ka = Object.keys(a)
  const kb = Object.keys(b)
  return ka.length === kb.length && ka.every((k) => isEqual((a as any)[k], (b as any)[k]))
}

export function hasFiles(value: unknown): boolean {
  if (value instanceof Blob) return true
  return typeof value === 'object' && value !== null && Object.values(value).some(hasFiles)
}

/** `user.email`, `items.0.name`: the dotted paths that error keys use. */
export const getPath = (from: any, path: string): any => path.split('.').reduce((v, key) => v?.[key], from)

export function setPath(into: any, path: string, value: unknown): void {
  const keys = path.split('.')
  const last = keys.pop()!
  const parent = keys.reduce((v, key) => v?.[key], into)
  if (parent && typeof parent === 'object') parent[last] = value
}

/**
 * What a JSON body carries, taken now: later edits of the form do not change a request on its
 * way. Files are left out; they travel only in multipart bodies.
 */
export const jsonCopy = <T>(value: T): T => JSON.parse(JSON.stringify(value, (_key, v) => (v instanceof Blob ? undefined : v)))

const field = (v: unknown): string | Blob => (v instanceof Blob ? v : v instanceof Date ? v.toISOString() : v === null ? '' : String(v))

/**
 * A multipart body in axios' notation (which PHP and body parsers read): `user[name]`, `tags[]`
 * for a flat list at the top, `items[0][name]`; null as an empty string, dates as ISO strings.
 */
export function toFormData(value: object, form = new FormData(), path = ''): FormData {
  for (const [key, v] of Object.entries(value)) {
    const name = path ? `${path}[${key}]` : key
    if (v === undefined) continue
    if (!path && Array.isArray(v) && !v.some(visitable)) v.forEach((item) => item != null && form.append(`${name}[]`, field(item)))
    else if (visitable(v)) toFormData(v, form, name)
    else form.append(name, field(v))
  }
  return form
}
