import type { RequestHandler } from 'express'
import { type AppContext, fieldError } from '../../../kernel/index.js'
import { Passkey } from '../models/passkey.js'
import { startAssertion } from '../services/assertions.js'

/**
 * `POST /api/account/confirm/passkey/options`: confirming it is you with a passkey begins with
 * this account's passkeys named, and a challenge good once, in this session only.
 */
export function confirmOptions(ctx: AppContext): RequestHandler {
  return async (req, res) => {
    const own = await Passkey.findAll({ attributes: ['credentialId', 'transports'], where: { userId: req.auth!.id } })
    if (own.length === 0) throw fieldError('passkey', 'passkeys.noPasskey')
    res.json(await startAssertion(res, ctx, 'confirm', own, { userId: req.auth!.id, sessionId: req.sessionId }))
  }
}
