import { z } from 'zod'
import { msg } from '../i18n/translate.js'
import { hasControlCharacter, normaliseEmail } from '../services/email-address.js'

// Field rules shared by the controllers. Messages are catalogue keys (i18n/messages/), keyed by field.

const typeMessage = (field: string, kind: string) => (issue: { input: unknown }) =>
  issue.input === undefined || issue.input === null ? msg('validation.required', { field }) : msg(kind, { field })

const text = (field: string) => z.string({ error: typeMessage(field, 'validation.string') })

/** An address in its one form (kernel/services/email-address.ts), or 422 for one that only looks like another. */
export const emailField = text('email')
  .transform((value, context) => {
    const email = normaliseEmail(value)
    if (email === null) context.issues.push({ code: 'custom', message: hasControlCharacter(value) ? 'validation.email' : 'validation.emailLookalike', input: value })
    return email ?? z.NEVER
  })
  .pipe(
    z
      .string()
      .min(1, msg('validation.required', { field: 'email' }))
      .max(255, msg('validation.tooLong', { field: 'email', max: 255 }))
      .pipe(z.email('validation.email')),
  )

// A line break in a name would forge lines in a plain-text mail sent to any address.
const NAME_CONTROL = /[\p{Cc}\u2028\u2029]/u
const NAME_MAX = 255

export const nameField = text('name')
  .trim()
  .min(1, msg('validation.required', { field: 'name' }))
  .max(NAME_MAX, msg('validation.tooLong', { field: 'name', max: NAME_MAX }))
  .refine((value) => !NAME_CONTROL.test(value), 'validation.nameControl')

/**
 * A name from elsewhere (a provider's display name) made to meet nameField's rule instead of
 * being refused: control characters become spaces, and it is trimmed and cut to the longest
 * allowed, never inside a character. Empty when nothing is left: the caller picks a fallback.
 */
export function tidyName(value: string): string {
  let name = value.replace(new RegExp(NAME_CONTROL, 'gu'), ' ').trim()
  if (name.length > NAME_MAX) name = name.slice(0, /[\uD800-\uDBFF]/.test(name[NAME_MAX - 1]!) ? NAME_MAX - 1 : NAME_MAX).trimEnd()
  return name
}

const utf8Bytes = (value: string) => Buffer.byteLength(value, 'utf8')

/**
 * bcrypt reads at most 72 bytes and stops at NUL, so longer or NUL-bearing passwords are
 * refused instead of being silently shortened. Never trimmed; no composition rules.
 */
export const newPasswordField = text('password')
  .refine((value) => [...value].length >= 8, msg('validation.passwordShort', { min: 8 }))
  .refine((value) => utf8Bytes(value) <= 72, msg('validation.passwordLong', { max: 72 }))
  .refine((value) => !value.includes('\0'), msg('validation.noNul', { field: 'password' }))

/** At login only the bcrypt limits apply: rules may have changed since the account was made. */
export const currentPasswordField = text('password')
  .min(1, msg('validation.required', { field: 'password' }))
  .refine((value) => utf8Bytes(value) <= 72, msg('validation.passwordLong', { max: 72 }))
  .refine((value) => !value.includes('\0'), msg('validation.noNul', { field: 'password' }))

export const tokenField = text('token').min(1, msg('validation.required', { field: 'token' })).max(512, 'validation.tokenInvalid')

/** What Laravel's `boolean()` reads as a checkbox: true/false, 1/0, "1"/"0", "true"/"false", "on"/"off", "yes"/"no". */
const rememberValues = new Map<unknown, boolean>([
  [true, true], [1, true], ['1', true], ['true', true], ['on', true], ['yes', true],
  [false, false], [0, false], ['0', false], ['false', false], ['off', false], ['no', false], ['', false], [null, false],
])
const rememberKey = (value: unknown) => (typeof value === 'string' ? value.trim().toLowerCase() : value)
export const rememberField = z
  .custom<unknown>((value) => rememberValues.has(rememberKey(value)), { error: 'validation.remember' })
  .transform((value) => rememberValues.get(rememberKey(value)) === true)
  .optional()

/** Query strings: an empty value means "not given". */
const queryInt = (field: string, min: number, max: number, fallback: number) =>
  z.preprocess(
    (value) => (value === '' || value === undefined ? undefined : value),
    z.coerce
      .number({ error: msg('validation.wholeNumber', { field }) })
      .int(msg('validation.wholeNumber', { field }))
      .min(min, msg('validation.atLeast', { field, min }))
      .max(max, msg('validation.atMost', { field, max }))
      .default(fallback),
  )

export const pageQuery = queryInt('page', 1, 1_000_000, 1)
export const sizeQuery = queryInt('size', 1, 100, 10)
export const searchQuery = text('search')
  .max(255, msg('validation.tooLong', { field: 'search', max: 255 }))
  // SQLite cannot take a NUL inside a query's text; no name or e-mail holds one anyway.
  .refine((value) => !value.includes('\0'), msg('validation.noNul', { field: 'search' }))
  .default('')

/** The largest id a 32-bit INTEGER column holds: a larger one is refused, not handed to the database. */
const MAX_ID = 2_147_483_647
const idMessage = 'validation.id'

/** A row id, as a number or a string of digits: both forms meet the same range check. */
export const idField = z
  .union([z.number(), z.string().regex(/^\d{1,16}$/).transform(Number)], { error: idMessage })
  .pipe(z.number().int(idMessage).min(1, idMessage).max(MAX_ID, idMessage))

/** Row ids from the data table. */
export const idList = z
  .array(idField, { error: msg('validation.idList', { field: 'ids' }) })
  .min(1, msg('validation.idListEmpty', { field: 'ids' }))
  .max(1000, msg('validation.idListLong', { field: 'ids', max: 1000 }))
