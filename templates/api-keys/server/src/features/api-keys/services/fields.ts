// The request fields of the API-key routes.
import { z } from 'zod'
import { durationSeconds, msg, nameField } from '../../../kernel/index.js'

export const SCOPES = ['read', 'write', 'admin'] as const
export type Scope = (typeof SCOPES)[number]

export const NAME_MAX = 100
/** The longest a key may be made to live: ten years (longer is "never", which is asked by leaving it out). */
export const EXPIRES_IN_MAX = 3650 * 86_400

export const apiKeyNameField = nameField.max(NAME_MAX, msg('validation.tooLong', { field: 'name', max: NAME_MAX }))

const required = (field: string) => (issue: { input: unknown }) =>
  issue.input === undefined || issue.input === null ? msg('validation.required', { field }) : msg('apiKeys.scopesList')

/** A non-empty subset of read, write and admin, each once, in that order. */
export const scopesField = z
  .array(z.enum(SCOPES, { error: 'apiKeys.scopeUnknown' }), { error: required('scopes') })
  .min(1, 'apiKeys.scopesRequired')
  .transform((scopes) => SCOPES.filter((scope) => scopes.includes(scope)))

/** A duration as `.env` writes them (`900`, `900s`, `15m`, `1h`, `30d`), or a number of seconds; absent or null: the key never expires. */
export const expiresInField = z
  .union([z.number(), z.string()], { error: 'apiKeys.expiresIn' })
  .nullable()
  .optional()
  .transform((value, context) => {
    if (value === undefined || value === null) return null
    const seconds = durationSeconds(String(value).trim())
    if (seconds === null || seconds > EXPIRES_IN_MAX) {
      context.issues.push({ code: 'custom', message: 'apiKeys.expiresIn', input: value })
      return z.NEVER
    }
    return seconds
  })
