import { messageBody, signedInBody, userBody, userJson, type AppContext, type RouteDoc } from '../../kernel/index.js'
import { forgotPasswordSchema } from './controllers/forgot-password.js'
import { loginSchema } from './controllers/login.js'
import { refreshTokenSchema } from './controllers/refresh-token.js'
import { registerSchema } from './controllers/register.js'
import { resetPasswordSchema } from './controllers/reset-password.js'
import { z } from 'zod'

const tag = 'Authentication'
const ok = (description: string, body: z.ZodType) => ({ 200: { description, body } })

/** `/api/auth`: registration, password sign-in and renewal, the password reset link. */
export function signInRouteDocs(ctx: AppContext): RouteDoc[] {
  const verification = ctx.auth.requireEmailVerification
  return [
    {
      method: 'post', path: '/api/auth/register', tag, summary: 'Register an account', body: registerSchema(ctx),
      responses: verification
        ? { 202: { description: 'The same answer for every valid request: a link is on its way', body: messageBody } }
        : { 201: { description: 'Registered and signed in (both cookies set)', body: signedInBody } },
      errors: [429],
    },
    { method: 'post', path: '/api/auth/login', tag, summary: 'Sign in with e-mail and password', body: loginSchema, responses: ok('Signed in (both cookies set)', signedInBody), errors: [403, 429] },
    { method: 'post', path: '/api/auth/logout', tag, summary: 'Sign out this session', auth: true, responses: { 204: { description: 'Signed out; cookies cleared' } } },
    { method: 'post', path: '/api/auth/logout-all', tag, summary: 'Sign out every session', auth: true, responses: { 204: { description: 'Every session signed out; cookies cleared' } } },
    {
      method: 'post', path: '/api/auth/refresh-token', tag, summary: 'Rotate the refresh token', body: refreshTokenSchema,
      responses: ok('A new access token (and refresh cookie; `refresh_token` when the old one came in the body)', signedInBody), errors: [401],
    },
    { method: 'post', path: '/api/auth/forgot-password', tag, summary: 'Mail a password reset link', body: forgotPasswordSchema, responses: ok('The same answer for any address', messageBody), errors: [429] },
    { method: 'post', path: '/api/auth/reset-password', tag, summary: 'Set a new password with a mailed token', body: resetPasswordSchema, responses: ok('Password reset; every session signed out', messageBody), errors: [429] },
  ]
}
