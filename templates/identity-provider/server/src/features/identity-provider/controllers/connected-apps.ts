import type { RequestHandler } from 'express'
import { type AppContext, notFound, recordCredentialEvent } from '../../../kernel/index.js'
import { oauthProviderEvents } from '../events.js'
import { OidcPayload } from '../models/oidc-payload.js'
import { connectedApps } from '../services/connected-apps.js'
import { grantCache, grantKeyOf } from '../services/grant-cache.js'

/** `GET /api/account/connected-apps`: the apps the person allowed, with their scopes and last use. */
export function listConnectedApps(): RequestHandler {
  return async (req, res) => {
    res.json({ data: await connectedApps(req.auth!.id) })
  }
}

/**
 * `DELETE /api/account/connected-apps/:clientId`: the app loses the person at once: its grants,
 * codes and refresh tokens go, and its access tokens stop working on their next request (the
 * grant cache is dropped on every instance). Another person's app or an unknown one is a 404.
 */
export function revokeConnectedApp(ctx: AppContext): RequestHandler {
  return async (req, res) => {
    const userId = req.auth!.id
    const clientId = String(req.params.clientId)
    const app = (await connectedApps(userId)).find((connected) => connected.client_id === clientId)
    if (!app) throw notFound()
    await recordCredentialEvent(ctx, oauthProviderEvents.revoked, userId, {
      req,
      meta: { clientId, name: app.name },
      change: (transaction) => OidcPayload.destroy({ where: { userId, clientId }, transaction }),
    })
    grantCache(ctx).changed(grantKeyOf(userId, clientId))
    res.status(204).end()
  }
}
