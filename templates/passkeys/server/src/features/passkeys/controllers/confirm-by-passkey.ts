import type { RequestHandler } from 'express'
import { z } from 'zod'
import type { AppContext } from '../../../context.js'
import { fieldError, unauthenticated } from '../../../http/errors.js'
import { validate } from '../../../http/validate.js'
import { confirmSession } from '../../../security/confirmation.js'
import { clearCookie, cookieNames, readSignedCookie } from '../../../services/cookies.js'
import { Passkey } from '../models/passkey.js'
import { checkAssertion } from '../services/assertions.js'
import { useChallenge } from '../services/challenges.js'
import { authenticationField } from '../services/fields.js'

export const confirmByPasskeySchema = z.object({ response: authenticationField })

/**
 * `POST /api/account/confirm/passkey`: an assertion by one of this account's passkeys, against
 * the challenge this session was given (used up, right or wrong), confirms the session. A wrong
 * one counts like a wrong password on the account routes.
 */
export function confirmByPasskey(ctx: AppContext): RequestHandler {
  return async (req, res) => {
    const input = validate(confirmByPasskeySchema, req.body)
    const userId = req.auth!.id
    const names = cookieNames(ctx)
    const challenge = readSignedCookie(req, ctx, names.webauthn).value
    clearCookie(res, ctx, names.webauthn)
    const passkey = await Passkey.findOne({ where: { credentialId: input.response.id, userId } })
    const used = !!challenge && (await useChallenge(challenge, 'confirm', { userId, sessionId: req.sessionId }))
    if (!used || !passkey || (await checkAssertion(ctx, input.response, challenge, passkey)) !== 'verified') {
      res.locals.wrongPassword = true
      throw fieldError('passkey', 'This passkey could not confirm it is you. Please try again.')
    }
    const until = await confirmSession(ctx, userId, req.sessionId!)
    if (!until) throw unauthenticated()
    res.json({ confirmed_until: until.toISOString() })
  }
}
