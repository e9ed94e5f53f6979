import { defaultLocale } from '../i18n/locales.js'
import { translator, type Translate } from '../i18n/translate.js'

/** Field → messages, each a catalogue message (`msg()` of kernel/i18n/translate.ts) until the body is written. */
export type FieldErrors = Record<string, string[]>

/**
 * An error the client is meant to see: status, message and optional per-field messages. The
 * messages are catalogue keys, put into the reader's language only when the body is written
 * (kernel/http/error-handler.ts), so whatever throws one need not know who reads it.
 */
export class HttpError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly errors?: FieldErrors,
    /** The message sums up `errors` (a 422 of validation). */
    private readonly summarises = false,
  ) {
    super(message)
    this.name = 'HttpError'
  }

  toJSON(t: Translate = translator(defaultLocale)): { message: string; errors?: FieldErrors } {
    if (!this.errors) return { message: t(this.message) }
    const errors = Object.fromEntries(Object.entries(this.errors).map(([field, messages]) => [field, messages.map((message) => t(message))]))
    return { message: this.summarises ? summary(t, errors) : t(this.message), errors }
  }
}

/** The first message, and how many more there are. */
function summary(t: Translate, errors: FieldErrors): string {
  const messages = Object.values(errors).flat()
  const [first] = messages
  if (first === undefined) return t('errors.invalid')
  return messages.length > 1 ? t('errors.summary', { first, count: messages.length - 1 }) : first
}

export const unauthenticated = () => new HttpError(401, 'errors.unauthenticated')
export const forbidden = () => new HttpError(403, 'errors.forbidden')
export const notFound = () => new HttpError(404, 'errors.notFound')

/** 422 in the shape the client helper reads: a summary plus `errors` keyed by dotted path. */
export const validationError = (errors: FieldErrors): HttpError => new HttpError(422, 'errors.invalid', errors, true)

export const fieldError = (field: string, message: string) => validationError({ [field]: [message] })

/** A mailed link's token that is unknown, used, expired or voided: one answer for all, so none can be told apart. */
export const invalidToken = () => fieldError('token', 'auth.linkInvalid')
