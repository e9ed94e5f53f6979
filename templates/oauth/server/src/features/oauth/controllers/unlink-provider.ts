import type { RequestHandler } from 'express'
import { type AppContext, fieldError, keepWayIn, notFound, recordCredentialEvent } from '../../../kernel/index.js'
import { oauthEvents } from '../events.js'
import { OAuthAccount } from '../models/oauth-account.js'

const lastWayIn = () => fieldError('provider', 'oauth.lastWayIn')

/**
 * `DELETE /api/account/connections/:provider`: never the account's last way to sign in. The
 * security core counts what is left after the deletion, under the user's row lock, so two
 * unlinks at once cannot both take the last two ways.
 */
export function unlinkProvider(ctx: AppContext): RequestHandler {
  return async (req, res) => {
    const userId = req.auth!.id
    const provider = String(req.params.provider)
    const account = await OAuthAccount.findOne({ where: { userId, provider } })
    if (!account) throw notFound()
    await recordCredentialEvent(ctx, oauthEvents.unlinked, userId, {
      req,
      // The sign-ins this provider made end with the link.
      revoke: { signedInWith: `provider:${provider}` },
      meta: { provider },
      change: async (transaction) => {
        // Counted: the first of two concurrent unlinks already took the row.
        if ((await OAuthAccount.destroy({ where: { id: account.id }, transaction })) === 0) throw notFound()
        await keepWayIn(ctx.features, userId, transaction, lastWayIn)
      },
    })
    res.status(204).end()
  }
}
