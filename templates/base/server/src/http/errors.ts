export type FieldErrors = Record<string, string[]>

/** An error the client is meant to see: status, message and optional per-field messages. */
export class HttpError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly errors?: FieldErrors,
  ) {
    super(message)
    this.name = 'HttpError'
  }

  toJSON(): { message: string; errors?: FieldErrors } {
    return this.errors ? { message: this.message, errors: this.errors } : { message: this.message }
  }
}

export const unauthenticated = () => new HttpError(401, 'Unauthenticated.')
export const forbidden = () => new HttpError(403, 'Forbidden.')
export const notFound = () => new HttpError(404, 'Not Found.')

/** 422 in the shape the client helper reads: a summary plus `errors` keyed by dotted path. */
export function validationError(errors: FieldErrors): HttpError {
  const messages = Object.values(errors).flat()
  const extra = messages.length - 1
  const summary = extra > 0 ? `${messages[0]} (and ${extra} more error${extra > 1 ? 's' : ''})` : messages[0]
  return new HttpError(422, summary ?? 'The given data was invalid.', errors)
}

export const fieldError = (field: string, message: string) => validationError({ [field]: [message] })
