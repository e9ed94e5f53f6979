import { generateRegistrationOptions } from '@simplewebauthn/server'
import type { RequestHandler } from 'express'
import { z } from 'zod'
import { type AppContext, currentPasswordField, signedInUser, validate } from '../../../kernel/index.js'
import { Passkey } from '../models/passkey.js'
import { rememberChallenge } from '../services/challenges.js'
import { relyingParty } from '../services/relying-party.js'
import { passkeys } from '../settings.js'

// Optional: a confirmed session (step-up) needs none, and an account without a password has none.
export const registrationOptionsSchema = z.object({ password: currentPasswordField.optional() })

/**
 * Step one of adding a passkey, behind step-up: what the browser needs to make one. The
 * challenge is good once, for 5 minutes, in this session; the user's passkeys are excluded, so
 * one authenticator does not hold two for the same account.
 */
export function registrationOptions(ctx: AppContext): RequestHandler {
  return async (req, res) => {
    validate(registrationOptionsSchema, req.body)
    const user = await signedInUser(req)
    const existing = await Passkey.findAll({ attributes: ['credentialId', 'transports'], where: { userId: user.id } })
    const rp = relyingParty(ctx)
    const options = await generateRegistrationOptions({
      rpName: rp.name,
      rpID: rp.id,
      userName: user.email,
      userDisplayName: user.name,
      timeout: passkeys.challengeSeconds * 1000,
      attestationType: 'none',
      authenticatorSelection: { residentKey: 'required', userVerification: 'required' },
      excludeCredentials: existing.map((passkey) => ({ id: passkey.credentialId, transports: passkey.transports?.split(',') })),
    })
    await rememberChallenge(options.challenge, 'register', { userId: user.id, sessionId: req.sessionId })
    res.json(options)
  }
}
