import { z } from 'zod'
import { type RouteDoc, signedInBody, timestamp } from '../../kernel/index.js'
import { addPasskeySchema } from './controllers/add-passkey.js'
import { confirmByPasskeySchema } from './controllers/confirm-by-passkey.js'
import { passkeySignInSchema } from './controllers/passkey-sign-in.js'
import { registrationOptionsSchema } from './controllers/registration-options.js'
import { removePasskeySchema } from './controllers/remove-passkey.js'
import { renamePasskeySchema } from './controllers/rename-passkey.js'

const tag = 'Passkeys'
const passkey = z.object({ id: z.number().int(), name: z.string(), createdAt: timestamp, lastUsedAt: timestamp.nullable(), backedUp: z.boolean() })
/** WebAuthn's options (`PublicKeyCredentialCreationOptionsJSON` / `…RequestOptionsJSON`), handed to the browser as they are. */
const webAuthnOptions = z.looseObject({ challenge: z.string() })
const account = { tag, auth: true, errors: [429] } as const
const stepUp = { tag, auth: true, errors: [403, 429] } as const

/** The passkeys layer's routes. */
export const routeDocs: RouteDoc[] = [
  { method: 'post', path: '/api/auth/passkey/options', tag, summary: 'Start a sign-in with a passkey', errors: [429], responses: { 200: { description: 'The WebAuthn request options', body: webAuthnOptions } } },
  { method: 'post', path: '/api/auth/passkey', tag, summary: 'Sign in with a passkey', body: passkeySignInSchema, errors: [401, 429], responses: { 200: { description: 'Signed in (both cookies set)', body: signedInBody } } },
  { method: 'get', path: '/api/account/passkeys', ...account, summary: 'The passkeys', responses: { 200: { description: 'Newest first', body: z.object({ data: z.array(passkey) }) } } },
  { method: 'post', path: '/api/account/passkeys/options', ...stepUp, summary: 'Start adding a passkey', body: registrationOptionsSchema, responses: { 200: { description: 'The WebAuthn creation options', body: webAuthnOptions } } },
  { method: 'post', path: '/api/account/passkeys', ...account, summary: 'Add the passkey the browser made', body: addPasskeySchema, responses: { 201: { description: 'Added', body: z.object({ passkey }) } } },
  { method: 'patch', path: '/api/account/passkeys/:id', ...account, errors: [404, 429], summary: 'Rename a passkey', body: renamePasskeySchema, responses: { 200: { description: 'Renamed', body: z.object({ passkey }) } } },
  { method: 'delete', path: '/api/account/passkeys/:id', ...stepUp, errors: [403, 404, 429], summary: 'Remove a passkey', body: removePasskeySchema, responses: { 204: { description: 'Removed' } } },
  { method: 'post', path: '/api/account/confirm/passkey/options', ...account, summary: 'Start confirming it is you with a passkey', responses: { 200: { description: 'The WebAuthn request options', body: webAuthnOptions } } },
  {
    method: 'post', path: '/api/account/confirm/passkey', ...account, summary: 'Confirm it is you with a passkey', body: confirmByPasskeySchema,
    responses: { 200: { description: 'Confirmed until', body: z.object({ confirmed_until: timestamp }) } },
  },
  {
    method: 'get', path: '/.well-known/passkey-endpoints', tag, summary: 'Where password managers add and manage passkeys (W3C Passkey Endpoints)',
    responses: { 200: { description: 'The settings page, twice', body: z.object({ enroll: z.string(), manage: z.string() }) } },
  },
]
