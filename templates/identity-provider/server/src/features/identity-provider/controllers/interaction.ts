import type { RequestHandler } from 'express'
import { type AppContext, envOf, recordCredentialEvent, User } from '../../../kernel/index.js'
import { oauthProviderEvents } from '../events.js'
import { config } from '../config.js'
import { covers, existingGrant, interactionOf, requestedScopes } from '../services/interactions.js'
import { providerOf } from '../services/provider.js'
import { apiResourceOf } from '../services/urls.js'

/**
 * `GET /api/oauth2/interaction/:uid`: what the consent page shows (who asks, for what, for whom)
 * and whether the person already allowed all of it, in which case the page goes on unasked.
 */
export function showInteraction(ctx: AppContext): RequestHandler {
  return async (req, res) => {
    const { provider } = await providerOf(ctx)
    const interaction = await interactionOf(provider, req, res)
    const clientId = String(interaction.params.client_id)
    const client = await provider.Client.find(clientId)
    const user = await User.findByPk(req.auth!.id)
    const scopes = requestedScopes(interaction, client)
    const grant = await existingGrant(provider, req.auth!.id, clientId, envOf(config, ctx.env).ENCRYPTION_KEY)
    res.json({
      client: { id: clientId, name: client?.clientName ?? clientId },
      scopes: [...scopes.openid, ...scopes.api],
      account: { name: user?.name ?? '', email: user?.email ?? '' },
      granted: covers(grant, scopes, ctx.env),
    })
  }
}

/**
 * `POST /api/oauth2/interaction/:uid/consent`: the signed-in person allows the request. Their
 * sign-in and their grant (added to the one they gave this client before) go back to the
 * provider, which answers the client; the page follows `redirect` there.
 */
export function consent(ctx: AppContext): RequestHandler {
  return async (req, res) => {
    const { provider } = await providerOf(ctx)
    const interaction = await interactionOf(provider, req, res)
    const userId = req.auth!.id
    const accountId = String(userId)
    const clientId = String(interaction.params.client_id)
    const client = await provider.Client.find(clientId)
    const scopes = requestedScopes(interaction, client)
    const existing = await existingGrant(provider, userId, clientId, envOf(config, ctx.env).ENCRYPTION_KEY)
    const widened = !covers(existing, scopes, ctx.env)
    const grant = existing ?? new provider.Grant({ accountId, clientId })
    if (scopes.openid.length) grant.addOIDCScope(scopes.openid.join(' '))
    if (scopes.api.length) grant.addResourceScope(apiResourceOf(ctx.env), scopes.api.join(' '))
    const grantId = await grant.save()
    // A new app, or more for one: the person hears of it, as of any new credential.
    if (widened) {
      await recordCredentialEvent(ctx, oauthProviderEvents.authorized, userId, { req, meta: { clientId, name: client?.clientName ?? clientId, scopes: [...scopes.openid, ...scopes.api] } })
    }
    // The provider's own session lasts as long as the browser: the app's is what signs in.
    const redirect = await provider.interactionResult(req, res, { login: { accountId, remember: false }, consent: { grantId } }, { mergeWithLastSubmission: false })
    res.json({ redirect })
  }
}

/** `POST /api/oauth2/interaction/:uid/deny`: the client hears `access_denied`, and nothing is granted. */
export function deny(ctx: AppContext): RequestHandler {
  return async (req, res) => {
    const { provider } = await providerOf(ctx)
    await interactionOf(provider, req, res)
    const redirect = await provider.interactionResult(req, res, { error: 'access_denied', error_description: 'The person declined the request.' }, { mergeWithLastSubmission: false })
    res.json({ redirect })
  }
}
