import type { RequestHandler } from 'express'
import { type AppContext, notFound } from '../../../kernel/index.js'
import { flowUrl } from '../services/flows.js'
import { findProvider } from '../services/provider-registry.js'

/**
 * `POST /api/account/connections/:provider`: where to send the browser to link this account
 * (a POST, so the CSRF check stands before the flow is bound to this user and session). The
 * callback links it and records `provider_linked`.
 */
export function linkProvider(ctx: AppContext): RequestHandler {
  return async (req, res) => {
    const provider = findProvider(ctx, req.params.provider)
    if (!provider) throw notFound()
    const link = { userId: req.auth!.id, sessionId: req.sessionId! }
    res.json({ url: await flowUrl(res, ctx, provider, { redirect: null, remember: false, link }) })
  }
}
