import {
  generateAuthenticationOptions,
  verifyAuthenticationResponse,
  type AuthenticationResponseJSON,
  type PublicKeyCredentialRequestOptionsJSON,
} from '@simplewebauthn/server'
import type { Request, Response } from 'express'
import { Op } from 'sequelize'
import { type AppContext, clearCookie, cookieNamesOf, readSignedCookie, setCookie } from '../../../kernel/index.js'
import { config } from '../config.js'
import type { CeremonyPurpose } from '../models/passkey-challenge.js'
import { Passkey } from '../models/passkey.js'
import { passkeys } from '../settings.js'
import { rememberChallenge } from './challenges.js'
import { relyingParty } from './relying-party.js'

/**
 * The options of an assertion ceremony (a sign-in, confirming it is you): user verification
 * required, the challenge kept hashed for one use and carried in the signed `{name}_webauthn`
 * cookie. `allowCredentials` names the passkeys that may answer (none: any of this site's).
 */
export async function startAssertion(
  res: Response,
  ctx: AppContext,
  purpose: CeremonyPurpose,
  allowCredentials: Pick<Passkey, 'credentialId' | 'transports'>[] = [],
  owner: { userId?: number; sessionId?: string } = {},
): Promise<PublicKeyCredentialRequestOptionsJSON> {
  const options = await generateAuthenticationOptions({
    rpID: relyingParty(ctx).id,
    allowCredentials: allowCredentials.map((passkey) => ({ id: passkey.credentialId, transports: passkey.transports?.split(',') as never })),
    userVerification: 'required',
    timeout: passkeys.challengeSeconds * 1000,
  })
  await rememberChallenge(options.challenge, purpose, owner)
  setCookie(res, ctx, cookieNamesOf(config, ctx).webauthn, options.challenge, passkeys.challengeSeconds)
  return options
}

/** The challenge the `{name}_webauthn` cookie carries, taken: the cookie is cleared whatever the answer. */
export function takeChallengeCookie(req: Request, res: Response, ctx: AppContext): string | undefined {
  const name = cookieNamesOf(config, ctx).webauthn
  const challenge = readSignedCookie(req, ctx, name).value
  clearCookie(res, ctx, name)
  return challenge ?? undefined
}

/**
 * A signed assertion of one of the stored passkeys, checked against its challenge (which the
 * caller has used up), the origin, RP id, public key, user verification and the signature
 * counter, which it advances: `verified`, or why not. Sign-in and confirming it is you share it.
 */
export async function checkAssertion(ctx: AppContext, response: AuthenticationResponseJSON, challenge: string, passkey: Passkey): Promise<'verified' | 'counter' | 'signature'> {
  const result = await verify(ctx, response, challenge, passkey)
  return result.outcome === 'verified' && !(await advanceCounter(passkey, result.counter, result.backedUp)) ? 'counter' : result.outcome
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
