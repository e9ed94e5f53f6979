import { z } from 'zod'
import { msg } from '../../../kernel/index.js'

/** Six digits, as the mail shows them; spaces people copy along are dropped. */
export const codeField = (field: string) =>
  z
    .string({ error: msg('validation.string', { field }) })
    .transform((value) => value.replace(/\s+/g, ''))
    .pipe(z.string().min(1, msg('validation.required', { field })).regex(/^\d{6}$/, 'passwordless.codeDigits'))

/** A wrong code or link, as the handlers mark it: what the lockout and the IP limit count. */
export const markWrong = (locals: Record<string, unknown>, code: boolean) => {
  locals.wrongEmailSignIn = code ? 'code' : 'token'
}
