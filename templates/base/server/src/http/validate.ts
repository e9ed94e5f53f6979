import { z } from 'zod'
import { validationError, type FieldErrors } from './errors.js'

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
    if (!messages.includes(issue.message)) messages.push(issue.message)
  }
  return errors
}
