import type { RequestHandler } from 'express'
import { z } from 'zod'
import { answerConfirmed, type AppContext, fieldError, markWrongConfirmation, validate } from '../../../kernel/index.js'
import { Passkey } from '../models/passkey.js'
import { checkAssertion, takeChallengeCookie } from '../services/assertions.js'
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
    const challenge = takeChallengeCookie(req, res, ctx)
    const passkey = await Passkey.findOne({ where: { credentialId: input.response.id, userId } })
    const used = !!challenge && (await useChallenge(challenge, 'confirm', { userId, sessionId: req.sessionId }))
    if (!used || !passkey || (await checkAssertion(ctx, input.response, challenge, passkey)) !== 'verified') {
      markWrongConfirmation(res, 'passkey')
      throw fieldError('passkey', 'passkeys.notConfirmed')
    }
    await answerConfirmed(res, ctx, userId, req.sessionId!)
  }
}
