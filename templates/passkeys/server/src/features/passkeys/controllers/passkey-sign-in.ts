import type { RequestHandler } from 'express'
import { z } from 'zod'
import { type AppContext, events, findUserById, HttpError, identityOf, recordCredentialEvent, rememberField, serializeUser, signIn, validate } from '../../../kernel/index.js'
import { Passkey } from '../models/passkey.js'
import { useChallenge } from '../services/challenges.js'
import { checkAssertion, takeChallengeCookie } from '../services/assertions.js'
import { authenticationField } from '../services/fields.js'

export const passkeySignInSchema = z.object({ response: authenticationField, remember: rememberField })

// One answer for every failure: which check failed is for the activity page, not the caller.
const failed = () => new HttpError(401, 'passkeys.signInFailed')

/**
 * The browser's signed assertion, checked against the cookie's challenge (used up here, right or
 * wrong), the origin, RP id, the stored public key, user verification and the signature counter.
 * It signs in as a password would, but skips the login steps after a password (a code asked
 * for): the device was present and unlocked by its owner's fingerprint, face or PIN.
 */
export function passkeySignIn(ctx: AppContext): RequestHandler {
  return async (req, res) => {
    const input = validate(passkeySignInSchema, req.body)
    const challenge = takeChallengeCookie(req, res, ctx)
    if (!challenge || !(await useChallenge(challenge, 'sign_in'))) throw failed()

    const passkey = await Passkey.findOne({ where: { credentialId: input.response.id } })
    if (!passkey) throw failed()
    const outcome = await checkAssertion(ctx, input.response, challenge, passkey)
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
