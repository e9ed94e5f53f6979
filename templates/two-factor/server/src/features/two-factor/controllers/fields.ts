import { z } from 'zod'
import { msg } from '../../../kernel/index.js'

const required = (field: string) => (issue: { input: unknown }) =>
  issue.input === undefined || issue.input === null ? msg('validation.required', { field }) : msg('validation.string', { field })

/** Six digits; spaces are dropped, as authenticator apps show `123 456`. */
export const codeField = z
  .string({ error: required('code') })
  .transform((value) => value.replace(/\s+/g, ''))
  .pipe(z.string().regex(/^\d{6}$/, 'twoFactor.codeDigits'))

export const recoveryCodeField = z
  .string({ error: required('recovery_code') })
  .trim()
  .min(1, msg('validation.required', { field: 'recovery_code' }))
  .max(64, 'twoFactor.recoveryInvalid')

export const INVALID_CODE = 'twoFactor.codeInvalid'
export const USED_CODE = 'twoFactor.codeUsed'
