import { z } from 'zod'
import { msg, searchQuery, SORT_KEYS, type SortField, type SortKey } from '../../../kernel/index.js'

const SORT_MESSAGE = msg('validation.sort', { keys: SORT_KEYS.join(', ') })

/** `name,-createdAt` → fields in order; an unknown or repeated key is a 422. */
export const sortQuery = z
  .string({ error: SORT_MESSAGE })
  .default('')
  .transform((value, ctx): SortField[] => {
    const fields = value.split(',').map((part) => part.trim()).filter(Boolean).map((part) => ({
      key: part.replace(/^-/, '') as SortKey,
      descending: part.startsWith('-'),
    }))
    const keys = fields.map((field) => field.key)
    if (keys.some((key) => !SORT_KEYS.includes(key)) || new Set(keys).size !== keys.length) {
      ctx.addIssue({ code: 'custom', message: SORT_MESSAGE })
      return z.NEVER
    }
    return fields
  })

const blankIsAbsent = (value: unknown) => (value === '' || value === null ? undefined : value)

/** `true`/`false` in a query string, or a boolean in a JSON body; blank is absent. */
const yesOrNo = (message: string) =>
  z.preprocess((value) => (value === 'true' ? true : value === 'false' ? false : blankIsAbsent(value)), z.boolean({ error: message }).optional())

/** `filter[role]`, `filter[verified]` and `filter[suspended]`: in a query string as text, in a JSON body as text or a boolean. */
export const userFilter = z
  .object({
    role: z.preprocess(blankIsAbsent, z.enum(['admin', 'user'], { error: 'validation.roleFilter' }).optional()),
    verified: yesOrNo('validation.verifiedFilter'),
    suspended: yesOrNo('validation.suspendedFilter'),
  }, { error: 'validation.filter' })
  .default({})

export const listQuery = z.object({ search: searchQuery, sort: sortQuery, filter: userFilter })

/**
 * Express reads `?filter[role]=admin` as a key named `filter[role]` (its simple query parser,
 * which cannot be tricked into building objects): gathered here into `filter`, so errors are
 * keyed `filter.role` as they are for a JSON body.
 */
export function gatherFilter(query: Record<string, unknown>): Record<string, unknown> {
  const filter: Record<string, unknown> = {}
  const rest: Record<string, unknown> = {}
  for (const [key, value] of Object.entries(query)) {
    const match = /^filter\[(\w+)\]$/.exec(key)
    if (match) filter[match[1]!] = value
    else rest[key] = value
  }
  return Object.keys(filter).length > 0 ? { ...rest, filter } : rest
}
