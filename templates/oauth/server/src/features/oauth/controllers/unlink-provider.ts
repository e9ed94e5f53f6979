import type { RequestHandler } from 'express'
import type { AppContext } from '../../../context.js'
import { fieldError, notFound } from '../../../http/errors.js'
import { OAuthAccount } from '../models/oauth-account.js'
import { recordCredentialEvent } from '../../../security/credential-events.js'
import { oauthEvents } from '../events.js'
import { hasOtherWayToSignIn } from '../services/accounts.js'

/** `DELETE /api/account/connections/:provider`: never the account's last way to sign in. */
export function unlinkProvider(ctx: AppContext): RequestHandler {
  return async (req, res) => {
    const userId = req.auth!.id
    const provider = String(req.params.provider)
    const account = await OAuthAccount.findOne({ where: { userId, provider } })
    if (!account) throw notFound()
    if (!(await hasOtherWayToSignIn(userId, provider))) {
      throw fieldError('provider', 'This is the only way to sign in to your account: set a password (with "Forgot password?") or add another way first.')
    }
    await account.destroy()
    await recordCredentialEvent(ctx, oauthEvents.unlinked, userId, { req, meta: { provider } })
    res.status(204).end()
  }
}
