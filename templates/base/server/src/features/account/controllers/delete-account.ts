import type { RequestHandler } from 'express'
import { z } from 'zod'
import { clearAuthCookies, currentPasswordField, events, keepingAnAdmin, layersLetUsersGo, recordCredentialEvent, signedInUser, validate, type AppContext } from '../../../kernel/index.js'

export const deleteAccountSchema = z.object({ password: currentPasswordField.optional() })

/**
 * The account goes; its refresh tokens and sessions keep their rows (userId null, revoked), so
 * a stolen token still meets reuse detection rather than an unknown jti. The last admin stays:
 * without one nobody could manage users. A layer may refuse too (kernel/feature.ts `UserDeletion`).
 */
export function deleteAccount(ctx: AppContext): RequestHandler {
  return async (req, res) => {
    validate(deleteAccountSchema, req.body)
    const user = await signedInUser(req)
    await keepingAnAdmin(
      async (transaction) => {
        await layersLetUsersGo(ctx.features, [user.id], transaction, 'password')
        await recordCredentialEvent(ctx, events.accountDeleted, user.id, { req, revoke: 'all', userChanged: true, transaction, change: () => user.destroy({ transaction }) })
      },
      'password',
      'account.onlyAdmin',
    )
    await req.guestSession.reset()
    clearAuthCookies(res, ctx)
    res.status(204).end()
  }
}
