import { z } from 'zod'
import { messageBody, userJson, type RouteDoc } from '../../kernel/index.js'
import { resendVerificationSchema } from './controllers/resend-verification.js'
import { verifyEmailSchema } from './controllers/verify-email.js'

const tag = 'Authentication'
const ok = (description: string, body: z.ZodType) => ({ 200: { description, body } })

/** `/api/auth`: the link that verifies an address. */
export function verificationRouteDocs(): RouteDoc[] {
  return [
    {
      method: 'post', path: '/api/auth/verify-email', tag, summary: 'Verify an address with a mailed token', body: verifyEmailSchema,
      responses: ok('Verified', z.object({ message: z.string(), user: userJson })),
    },
    { method: 'post', path: '/api/auth/resend-verification', tag, summary: 'Mail the verification link again', body: resendVerificationSchema, responses: ok('The same answer for any address', messageBody), errors: [429] },
  ]
}
