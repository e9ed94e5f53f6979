import { z } from 'zod'

// Field rules shared by the controllers. Messages are written for people, keyed by field.

const typeMessage = (field: string, kind: string) => (issue: { input: unknown }) =>
  issue.input === undefined || issue.input === null ? `The ${field} field is required.` : `The ${field} field must be ${kind}.`

const text = (field: string) => z.string({ error: typeMessage(field, 'a string') })

export const emailField = text('email')
  .trim()
  .toLowerCase()
  .min(1, 'The email field is required.')
  .max(255, 'The email field must not be longer than 255 characters.')
  .pipe(z.email('The email field must be a valid e-mail address.'))

export const nameField = text('name')
  .trim()
  .min(1, 'The name field is required.')
  .max(255, 'The name field must not be longer than 255 characters.')
  // A line break in a name would forge lines in a plain-text mail sent to any address.
  .refine((value) => !/[\p{Cc}\u2028\u2029]/u.test(value), 'The name must not contain line breaks or other control characters.')

const utf8Bytes = (value: string) => Buffer.byteLength(value, 'utf8')

/**
 * bcrypt reads at most 72 bytes and stops at NUL, so longer or NUL-bearing passwords are
 * refused instead of being silently shortened. Never trimmed; no composition rules.
 */
export const newPasswordField = text('password')
  .refine((value) => [...value].length >= 8, 'The password must be at least 8 characters.')
  .refine((value) => utf8Bytes(value) <= 72, 'The password must not be longer than 72 bytes (UTF-8).')
  .refine((value) => !value.includes('\0'), 'The password must not contain NUL characters.')

/** At login only the bcrypt limits apply: rules may have changed since the account was made. */
export const currentPasswordField = text('password')
  .min(1, 'The password field is required.')
  .refine((value) => utf8Bytes(value) <= 72, 'The password must not be longer than 72 bytes (UTF-8).')
  .refine((value) => !value.includes('\0'), 'The password must not contain NUL characters.')

export const tokenField = text('token').min(1, 'The token field is required.').max(512, 'The token is invalid.')

/** What Laravel's `boolean()` reads as a checkbox: true/false, 1/0, "1"/"0", "true"/"false", "on"/"off", "yes"/"no". */
const rememberValues = new Map<unknown, boolean>([
  [true, true], [1, true], ['1', true], ['true', true], ['on', true], ['yes', true],
  [false, false], [0, false], ['0', false], ['false', false], ['off', false], ['no', false], ['', false], [null, false],
])
const rememberKey = (value: unknown) => (typeof value === 'string' ? value.trim().toLowerCase() : value)
export const rememberField = z
  .custom<unknown>((value) => rememberValues.has(rememberKey(value)), { error: 'The remember field must be true or false.' })
  .transform((value) => rememberValues.get(rememberKey(value)) === true)
  .optional()

/** Query strings: an empty value means "not given". */
const queryInt = (field: string, min: number, max: number, fallback: number) =>
  z.preprocess(
    (value) => (value === '' || value === undefined ? undefined : value),
    z.coerce
      .number({ error: `The ${field} must be a whole number.` })
      .int(`The ${field} must be a whole number.`)
      .min(min, `The ${field} must be at least ${min}.`)
      .max(max, `The ${field} must not be greater than ${max}.`)
      .default(fallback),
  )

export const pageQuery = queryInt('page', 1, 1_000_000, 1)
export const sizeQuery = queryInt('size', 1, 100, 10)
export const searchQuery = text('search')
  .max(255, 'The search must not be longer than 255 characters.')
  // SQLite cannot take a NUL inside a query's text; no name or e-mail holds one anyway.
  .refine((value) => !value.includes('\0'), 'The search must not contain NUL characters.')
  .default('')

/** The largest id a 32-bit INTEGER column holds: a larger one is refused, not handed to the database. */
const MAX_ID = 2_147_483_647
const idMessage = 'Each id must be a positive whole number.'

/** A row id, as a number or a string of digits: both forms meet the same range check. */
export const idField = z
  .union([z.number(), z.string().regex(/^\d{1,16}$/).transform(Number)], { error: idMessage })
  .pipe(z.number().int(idMessage).min(1, idMessage).max(MAX_ID, idMessage))

/** Row ids from the data table. */
export const idList = z
  .array(idField, { error: 'The ids field must be a list of ids.' })
  .min(1, 'The ids field must list at least one id.')
  .max(1000, 'The ids field must not list more than 1000 ids.')
