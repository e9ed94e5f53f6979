import { generateAuthenticationOptions } from '@simplewebauthn/server'
import type { RequestHandler } from 'express'
import { passkeys } from '../settings.js'
import type { AppContext } from '../../../context.js'
import { cookieNames, setCookie } from '../../../services/cookies.js'
import { rememberChallenge } from '../services/challenges.js'
import { relyingParty } from '../services/relying-party.js'

/**
 * A passkey sign-in begins with nobody named: no `allowCredentials`, so the browser offers the
 * passkeys it holds for this site (discoverable credentials) and no address is probed. The
 * challenge rides in the signed `{name}_webauthn` cookie and is kept, hashed, for one use.
 */
export function signInOptions(ctx: AppContext): RequestHandler {
  return async (_req, res) => {
    const options = await generateAuthenticationOptions({
      rpID: relyingParty(ctx).id,
      allowCredentials: [],
      userVerification: 'required',
      timeout: passkeys.challengeSeconds * 1000,
    })
    await rememberChallenge(options.challenge, 'sign_in')
    setCookie(res, ctx, cookieNames(ctx).webauthn, options.challenge, passkeys.challengeSeconds)
    res.json(options)
  }
}
