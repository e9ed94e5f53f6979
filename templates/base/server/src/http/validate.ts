import { z } from 'zod'
import { validationError, type FieldErrors } from './errors.js'

/**
 * Parses a request body or query. Anything that is not a plain object (no body, an array, a
 * form post) is validated as `{}`, so the answer lists the missing fields rather than a
 * structural complaint.
 */
export function validate<T extends z.ZodType>(schema: T, input: unknown): z.output<T> {
  const value = input !== null && typeof input === 'object' && !Array.isArray(input) ? input : {}
  const result = schema.safeParse(value)
  if (!result.success) throw validationError(toFieldErrors(result.error))
  return result.data
}

export function toFieldErrors(error: z.ZodError): FieldErrors {
  const errors: FieldErrors = {}
  for (const issue of error.issues) {
    const key = issue.path.map(String).join('.') || 'body'
    const messages = (errors[key] ??= [])
    if (!messages.includes(issue.message)) messages.push(issue.message)
  }
  return errors
}
