import { verifyRegistrationResponse, type RegistrationResponseJSON } from '@simplewebauthn/server'
import type { RequestHandler } from 'express'
import { UniqueConstraintError } from 'sequelize'
import { z } from 'zod'
import { type AppContext, deviceOf, fieldError, recordCredentialEvent, validate } from '../../../kernel/index.js'
import { Passkey } from '../models/passkey.js'
import { passkeyEvents } from '../events.js'
import { challengeOf, useChallenge } from '../services/challenges.js'
import { passkeyJson } from '../services/passkey-json.js'
import { recountPasskeys } from '../services/passkey-rows.js'
import { relyingParty } from '../services/relying-party.js'
import { passkeyNameField, registrationField } from '../services/fields.js'

export const addPasskeySchema = z.object({
  // Optional: the device it was made on names it otherwise ("Chrome on macOS").
  name: z.preprocess((value) => (typeof value === 'string' && value.trim() === '' ? undefined : value), passkeyNameField.optional()),
  response: registrationField,
})

const refused = (message = 'passkeys.notVerified') => fieldError('response', message)

/**
 * Step two: the browser's new credential, checked against this session's challenge (used up
 * here, right or wrong), this site's origin and RP id, with user verification. Stored with its
 * `passkey_added` event and notice through the security core.
 */
export function addPasskey(ctx: AppContext): RequestHandler {
  return async (req, res) => {
    const input = validate(addPasskeySchema, req.body)
    const userId = req.auth!.id
    const challenge = challengeOf(input.response.response.clientDataJSON)
    if (!challenge || !(await useChallenge(challenge, 'register', { userId, sessionId: req.sessionId }))) {
      throw refused('passkeys.requestExpired')
    }
    const registration = await verify(ctx, input.response, challenge)
    if (!registration) throw refused()
    const { credential, credentialBackedUp } = registration.registrationInfo

    let passkey: Passkey | undefined
    try {
      await recordCredentialEvent(ctx, passkeyEvents.added, userId, {
        req,
        userChanged: true,
        change: async (transaction) => {
          passkey = await Passkey.create(
            {
              userId,
              credentialId: credential.id,
              publicKey: Buffer.from(credential.publicKey).toString('base64url'),
              counter: credential.counter,
              transports: credential.transports?.join(',') || null,
              name: input.name || deviceOf(req.get('user-agent') ?? null),
              backedUp: credentialBackedUp,
            },
            { transaction },
          )
          await recountPasskeys(userId, transaction)
        },
      })
    } catch (error) {
      // A credential id is unique across all accounts: the insert decides, in the event's transaction.
      if (error instanceof UniqueConstraintError) throw refused('passkeys.alreadyRegistered')
      throw error
    }
    res.status(201).json({ passkey: passkeyJson(passkey!) })
  }
}

async function verify(ctx: AppContext, response: RegistrationResponseJSON, challenge: string) {
  const rp = relyingParty(ctx)
  try {
    const result = await verifyRegistrationResponse({
      response,
      expectedChallenge: challenge,
      expectedOrigin: rp.origins,
      expectedRPID: rp.id,
      requireUserVerification: true,
    })
    return result.verified ? result : null
  } catch {
    // The library throws on every mismatch (origin, RP id, type, flags, format): all a refusal.
    return null
  }
}
