import type { RequestHandler } from 'express'
import { z } from 'zod'
import { type AppContext, notFound, validate } from '../../../kernel/index.js'
import { OAuthAccount } from '../models/oauth-account.js'
import { flowUrl } from '../services/flows.js'
import { findProvider } from '../services/provider-registry.js'
import { redirectField } from '../services/redirects.js'
import { oauth } from '../settings.js'

export const startConfirmationSchema = z.object({ redirect: redirectField.optional() })

/**
 * `POST /api/account/confirm/provider/:provider`: where to send the browser to confirm it is you
 * with a linked provider (step-up). The flow is bound to this user and session; the callback
 * confirms the session only for the very account that is linked, then returns to `redirect`.
 */
export function startConfirmation(ctx: AppContext): RequestHandler {
  return async (req, res) => {
    const provider = findProvider(ctx, req.params.provider)
    if (!provider) throw notFound()
    const { redirect } = validate(startConfirmationSchema, req.body ?? {})
    if (!(await OAuthAccount.count({ where: { userId: req.auth!.id, provider: provider.id } }))) throw notFound()
    const link = { userId: req.auth!.id, sessionId: req.sessionId! }
    res.json({ url: await flowUrl(res, ctx, provider, { redirect: redirect ?? oauth.settingsPath, remember: false, link, confirm: true }) })
  }
}
