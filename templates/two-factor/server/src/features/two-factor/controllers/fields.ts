import { z } from 'zod'

const required = (field: string) => (issue: { input: unknown }) =>
  issue.input === undefined || issue.input === null ? `The ${field} field is required.` : `The ${field} field must be a string.`

/** Six digits; spaces are dropped, as authenticator apps show `123 456`. */
export const codeField = z
  .string({ error: required('code') })
  .transform((value) => value.replace(/\s+/g, ''))
  .pipe(z.string().regex(/^\d{6}$/, 'The code must be 6 digits.'))

export const recoveryCodeField = z
  .string({ error: required('recovery code') })
  .trim()
  .min(1, 'The recovery code field is required.')
  .max(64, 'The recovery code is invalid.')

export const INVALID_CODE = 'The code is invalid.'
export const USED_CODE = 'This code was already used. Wait for the next one.'
