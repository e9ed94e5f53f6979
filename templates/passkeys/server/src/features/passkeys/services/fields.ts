// The request fields of the passkey routes: the browser's answers to a ceremony, and a passkey's name.
import type { AuthenticationResponseJSON, RegistrationResponseJSON } from '@simplewebauthn/server'
import { z } from 'zod'
import { passkeys } from '../settings.js'
import { msg, nameField } from '../../../kernel/index.js'

// The JSON a browser's WebAuthn answer serialises to (what @simplewebauthn/browser posts). Only
// its shape is checked here; what it proves is checked by @simplewebauthn/server.
const base64url = z.string().min(1).max(16_384).regex(/^[A-Za-z0-9_-]+$/)
const credential = {
  id: base64url.max(passkeys.credentialIdMaxLength),
  rawId: base64url.max(passkeys.credentialIdMaxLength),
  type: z.literal('public-key'),
  clientExtensionResults: z.record(z.string(), z.unknown()),
  authenticatorAttachment: z.enum(['platform', 'cross-platform']).optional(),
}
const registration = z.looseObject({
  ...credential,
  response: z.looseObject({ clientDataJSON: base64url, attestationObject: base64url, transports: z.array(z.string().max(32)).max(10).optional() }),
})
const authentication = z.looseObject({
  ...credential,
  response: z.looseObject({ clientDataJSON: base64url, authenticatorData: base64url, signature: base64url, userHandle: base64url.optional() }),
})

// One message on `response` however the answer is malformed (the API answers errors.response).
const RESPONSE_REQUIRED = 'passkeys.responseMalformed'
export const registrationField = z.custom<RegistrationResponseJSON>((value) => registration.safeParse(value).success, { message: RESPONSE_REQUIRED })
export const authenticationField = z.custom<AuthenticationResponseJSON>((value) => authentication.safeParse(value).success, { message: RESPONSE_REQUIRED })

export const passkeyNameField = nameField.max(passkeys.nameMaxLength, msg('validation.tooLong', { field: 'name', max: passkeys.nameMaxLength }))
