import { verifyAuthenticationResponse, type AuthenticationResponseJSON } from '@simplewebauthn/server'
import type { RequestHandler } from 'express'
import { Op } from 'sequelize'
import { z } from 'zod'
import type { AppContext } from '../../../context.js'
import { HttpError } from '../../../http/errors.js'
import { rememberField } from '../../../http/schemas.js'
import { validate } from '../../../http/validate.js'
import { Passkey } from '../models/passkey.js'
import { recordCredentialEvent } from '../../../security/credential-events.js'
import { events } from '../../../security/events.js'
import { clearCookie, cookieNames, readSignedCookie } from '../../../services/cookies.js'
import { useChallenge } from '../services/challenges.js'
import { relyingParty } from '../services/relying-party.js'
import { authenticationField } from '../services/fields.js'
import { signIn } from '../../../services/sign-in.js'
import { findUserById, identityOf, serializeUser } from '../../../services/users.js'

export const passkeySignInSchema = z.object({ response: authenticationField, remember: rememberField })

// One answer for every failure: which check failed is for the activity page, not the caller.
const failed = () => new HttpError(401, 'This passkey could not sign you in. Please try again.')

/**
 * The browser's signed assertion, checked against the cookie's challenge (used up here, right or
 * wrong), the origin, RP id, the stored public key, user verification and the signature counter.
 * It signs in as a password would, but skips the login steps after a password (a code asked
 * for): the device was present and unlocked by its owner's fingerprint, face or PIN.
 */
export function passkeySignIn(ctx: AppContext): RequestHandler {
  return async (req, res) => {
    const input = validate(passkeySignInSchema, req.body)
    const names = cookieNames(ctx)
    const challenge = readSignedCookie(req, ctx, names.webauthn).value
    clearCookie(res, ctx, names.webauthn)
    if (!challenge || !(await useChallenge(challenge, 'sign_in'))) throw failed()

    const passkey = await Passkey.findOne({ where: { credentialId: input.response.id } })
    if (!passkey) throw failed()
    const result = await verify(ctx, input.response, challenge, passkey)
    const outcome = result.outcome === 'verified' && !(await advanceCounter(passkey, result.counter, result.backedUp)) ? 'counter' : result.outcome
    if (outcome !== 'verified') {
      await recordCredentialEvent(ctx, events.signInFailed, passkey.userId, { req, meta: { factor: 'passkey', reason: outcome, passkey: passkey.name } })
      throw failed()
    }

    const user = await findUserById(passkey.userId)
    if (!user) throw failed()
    const json = serializeUser(user)
    // Removing this passkey ends the sessions it signed in.
    const accessToken = await signIn(req, res, ctx, identityOf(json), input.remember ?? false, 'passkey', `passkey:${passkey.id}`)
    res.json({ user: json, access_token: accessToken })
  }
}

type Verification = { outcome: 'verified'; counter: number; backedUp: boolean } | { outcome: 'counter' | 'signature' }

async function verify(ctx: AppContext, response: AuthenticationResponseJSON, challenge: string, passkey: Passkey): Promise<Verification> {
  const rp = relyingParty(ctx)
  try {
    const result = await verifyAuthenticationResponse({
      response,
      expectedChallenge: challenge,
      expectedOrigin: rp.origins,
      expectedRPID: rp.id,
      requireUserVerification: true,
      credential: {
        id: passkey.credentialId,
        publicKey: new Uint8Array(Buffer.from(passkey.publicKey, 'base64url')),
        counter: passkey.counter,
        transports: passkey.transports?.split(',') as never,
      },
    })
    if (!result.verified) return { outcome: 'signature' }
    return { outcome: 'verified', counter: result.authenticationInfo.newCounter, backedUp: result.authenticationInfo.credentialBackedUp }
  } catch (error) {
    // The library refuses a counter that did not go up (a cloned authenticator) with an error
    // of its own wording; every other refusal is a wrong signature, origin, RP id or flag.
    return { outcome: error instanceof Error && /counter/i.test(error.message) ? 'counter' : 'signature' }
  }
}

/**
 * Stores the new counter only if it still goes up from what is stored: two sign-ins with the
 * same counter value (a clone used in parallel) cannot both pass. Authenticators that keep no
 * counter report 0 every time.
 */
async function advanceCounter(passkey: Passkey, counter: number, backedUp: boolean): Promise<boolean> {
  const where = counter === 0 ? { id: passkey.id, counter: 0 } : { id: passkey.id, counter: { [Op.lt]: counter } }
  const [updated] = await Passkey.update({ counter, backedUp, lastUsedAt: new Date() }, { where })
  return updated === 1
}
