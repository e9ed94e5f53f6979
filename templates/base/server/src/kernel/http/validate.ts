import { z } from 'zod'
import { msg } from '../i18n/translate.js'
import { validationError, type FieldErrors } from './errors.js'

/**
 * A rule without a message of its own (zod's defaults are English) reports this key; the field's
 * name is added where the issue's whole path is known (toFieldErrors).
 */
const INVALID = 'validation.invalid'
z.config({ customError: () => INVALID })

/**
 * Parses a request body or query. Anything that is not a plain object (no body, an array, a
 * form post) is validated as `{}`, so the answer lists the missing fields rather than a
 * structural complaint.
 */
export function validate<T extends z.ZodType>(schema: T, input: unknown): z.output<T> {
  const result = schema.safeParse(bodyObject(input))
  if (!result.success) throw validationError(toFieldErrors(result.error))
  return result.data
}

/** For a schema with an async rule (one that asks the database). */
export async function validateAsync<T extends z.ZodType>(schema: T, input: unknown): Promise<z.output<T>> {
  const result = await schema.safeParseAsync(bodyObject(input))
  if (!result.success) throw validationError(toFieldErrors(result.error))
  return result.data
}

export const bodyObject = (input: unknown): object => (input !== null && typeof input === 'object' && !Array.isArray(input) ? input : {})

export function toFieldErrors(error: z.ZodError): FieldErrors {
  const errors: FieldErrors = {}
  for (const issue of error.issues) {
    const key = issue.path.map(String).join('.') || 'body'
    const messages = (errors[key] ??= [])
    const message = issue.message === INVALID ? msg(INVALID, { field: key }) : issue.message
    if (!messages.includes(message)) messages.push(message)
  }
  return errors
}
