import { generateAuthenticationOptions } from '@simplewebauthn/server'
import type { RequestHandler } from 'express'
import type { AppContext } from '../../../context.js'
import { fieldError } from '../../../http/errors.js'
import { cookieNames, setCookie } from '../../../services/cookies.js'
import { Passkey } from '../models/passkey.js'
import { rememberChallenge } from '../services/challenges.js'
import { relyingParty } from '../services/relying-party.js'
import { passkeys } from '../settings.js'

/**
 * `POST /api/account/confirm/passkey/options`: confirming it is you with a passkey begins with
 * this account's passkeys named, and a challenge good once, in this session only.
 */
export function confirmOptions(ctx: AppContext): RequestHandler {
  return async (req, res) => {
    const own = await Passkey.findAll({ attributes: ['credentialId', 'transports'], where: { userId: req.auth!.id } })
    if (own.length === 0) throw fieldError('passkey', 'Your account has no passkey: confirm another way.')
    const options = await generateAuthenticationOptions({
      rpID: relyingParty(ctx).id,
      allowCredentials: own.map((passkey) => ({ id: passkey.credentialId, transports: passkey.transports?.split(',') as never })),
      userVerification: 'required',
      timeout: passkeys.challengeSeconds * 1000,
    })
    await rememberChallenge(options.challenge, 'confirm', { userId: req.auth!.id, sessionId: req.sessionId })
    setCookie(res, ctx, cookieNames(ctx).webauthn, options.challenge, passkeys.challengeSeconds)
    res.json(options)
  }
}
