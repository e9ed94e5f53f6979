import { z } from 'zod'
import { type RouteDoc, signedInBody } from '../../kernel/index.js'
import { confirmTwoFactorSchema } from './controllers/confirm-two-factor.js'
import { disableTwoFactorSchema } from './controllers/disable-two-factor.js'
import { enableTwoFactorSchema } from './controllers/enable-two-factor.js'
import { regenerateRecoveryCodesSchema } from './controllers/regenerate-recovery-codes.js'
import { twoFactorChallengeSchema } from './controllers/two-factor-challenge.js'

const tag = 'Two-factor authentication'
const recoveryCodes = z.object({ recovery_codes: z.array(z.string()) })
// Behind authentication and step-up; wrong passwords and codes count toward a 429.
const account = { tag, auth: true, errors: [403, 429] } as const

/** The two-factor layer's routes, and its answer to a login. */
export const routeDocs: RouteDoc[] = [
  {
    method: 'post', path: '/api/auth/login', tag: 'Authentication', summary: 'Sign in with e-mail and password',
    responses: { 200: { description: 'A second factor is asked for (`/api/auth/two-factor-challenge`)', body: z.object({ two_factor: z.literal(true) }) } },
  },
  {
    method: 'post', path: '/api/auth/two-factor-challenge', tag, summary: 'Finish a sign-in with a code or a recovery code', body: twoFactorChallengeSchema,
    responses: { 200: { description: 'Signed in (both cookies set)', body: signedInBody } }, errors: [401, 429],
  },
  {
    method: 'post', path: '/api/account/two-factor', ...account, summary: 'Start enabling two-factor authentication', body: enableTwoFactorSchema,
    responses: { 200: { description: 'The secret to scan, to be confirmed with a code', body: z.object({ secret: z.string(), otpauth_url: z.string(), qr_svg: z.string() }) } },
  },
  { method: 'post', path: '/api/account/two-factor/confirm', tag, auth: true, errors: [429], summary: 'Confirm with a code', body: confirmTwoFactorSchema, responses: { 200: { description: 'Enabled; the recovery codes, shown once', body: recoveryCodes } } },
  { method: 'delete', path: '/api/account/two-factor', ...account, summary: 'Disable two-factor authentication', body: disableTwoFactorSchema, responses: { 204: { description: 'Disabled' } } },
  {
    method: 'post', path: '/api/account/two-factor/recovery-codes', tag, auth: true, errors: [403, 409, 429], summary: 'New recovery codes', body: regenerateRecoveryCodesSchema,
    responses: { 200: { description: 'The new codes, shown once', body: recoveryCodes } },
  },
]
