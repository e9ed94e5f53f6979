import { z } from 'zod'
import { messageBody, type RouteDoc, signedInBody } from '../../kernel/index.js'
import { approveSignInSchema } from './controllers/approve-sign-in.js'
import { requestSignInSchema } from './controllers/request-sign-in.js'
import { verifySignInSchema } from './controllers/verify-sign-in.js'

const tag = 'Sign-in by e-mail'
// A layer's login step instead of a session (a second factor asked for): its flag, as a login answers it.
const loginStep = z.record(z.string(), z.literal(true))

/** The passwordless layer's routes. */
export const routeDocs: RouteDoc[] = [
  {
    method: 'post', path: '/api/auth/email-sign-in', tag, summary: 'Mail a sign-in link and code', body: requestSignInSchema,
    responses: { 202: { description: 'The same answer for every address; the asking browser is bound by a cookie', body: messageBody } }, errors: [429],
  },
  {
    method: 'post', path: '/api/auth/email-sign-in/verify', tag, summary: 'Sign in with the mailed code or link', body: verifySignInSchema,
    responses: {
      200: {
        description: 'Signed in (both cookies set); `other_device` when the link was opened elsewhere than in the browser that asked (`/approve` lets that one in); or a login step a layer asks for (a second factor)',
        body: z.union([signedInBody, z.object({ other_device: z.literal(true) }), loginStep]),
      },
    },
    errors: [429],
  },
  {
    method: 'post', path: '/api/auth/email-sign-in/approve', tag, summary: 'Let the browser that asked sign in (the link opened on another device)', body: approveSignInSchema,
    responses: { 200: { description: 'The link is used; the asking browser signs in on its next status poll', body: messageBody } }, errors: [429],
  },
  {
    method: 'post', path: '/api/auth/email-sign-in/status', tag, summary: 'Poll, from the browser that asked, for a link approved on another device', precognitive: false,
    responses: {
      200: { description: 'Signed in (both cookies set), or a login step a layer asks for (a second factor)', body: z.union([signedInBody, loginStep]) },
      202: { description: 'Still waiting', body: z.object({ status: z.literal('pending') }) },
    },
    errors: [422, 429],
  },
  {
    method: 'post', path: '/api/account/confirm/email', tag, auth: true, summary: 'Mail a code to confirm it is you (accounts whose one way in is their address)', precognitive: false,
    responses: { 202: { description: 'A code is on its way to the account\'s address', body: messageBody } }, errors: [403, 429],
  },
]
