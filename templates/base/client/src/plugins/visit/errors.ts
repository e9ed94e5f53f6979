import { responseOf } from './http'
import type { Errors } from './types'

interface Issue {
  path?: (string | number)[]
  message?: string
}

/**
 * One errors object from either failure body the API may send:
 * `{ errors: { field: [messages] } }` or `{ error: { issues: [{ path, message }] } }`.
 * Accepts the raw error of a request or a response body.
 */
export function normalizeErrors(source: unknown): Errors {
  const body: any = source instanceof Error ? responseOf(source)?.data : source
  if (!body || typeof body !== 'object') return {}
  if (body.errors && typeof body.errors === 'object') return { ...body.errors }
  // A ZodError serialised as it is (`{ issues }`) reads the same.
  const issues: unknown = body.error?.issues ?? body.issues
  if (!Array.isArray(issues)) return {}
  const errors: Errors = {}
  for (const issue of issues as Issue[]) {
    if (typeof issue?.message !== 'string') continue
    const key = (issue.path ?? []).join('.')
    const seen = errors[key]
    // Several issues on one field keep every message, in order.
    errors[key] = seen === undefined ? issue.message : [...([] as string[]).concat(seen), issue.message]
  }
  return errors
}

/** The first message of a field, for display. */
export function firstError(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value
}
