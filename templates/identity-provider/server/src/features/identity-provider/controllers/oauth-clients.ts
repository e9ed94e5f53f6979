import type { RequestHandler } from 'express'
import { type AppContext, notFound, validate, validationError } from '../../../kernel/index.js'
import { OAuthClient } from '../models/oauth-client.js'
import { OidcPayload } from '../models/oidc-payload.js'
import { clientCache } from '../services/client-cache.js'
import { clientJson } from '../services/client-json.js'
import { grantCache, grantKeyOf } from '../services/grant-cache.js'
import { checkUpdate, createClientSchema, updateClientSchema } from '../services/client-fields.js'
import { newClientId, newClientSecret } from '../services/client-secrets.js'

const clientOf = async (id: unknown) => {
  const key = Number(id)
  const client = Number.isSafeInteger(key) && key > 0 ? await OAuthClient.findByPk(key) : null
  if (!client) throw notFound()
  return client
}

/** `GET /api/admin/oauth-clients`: every registered client, oldest first. */
export function listClients(): RequestHandler {
  return async (_req, res) => {
    const clients = await OAuthClient.findAll({ order: [['id', 'ASC']] })
    res.json({ data: clients.map(clientJson) })
  }
}

/** `POST /api/admin/oauth-clients`: a confidential client's secret is in this answer and nowhere else. */
export function createClient(): RequestHandler {
  return async (req, res) => {
    const input = validate(createClientSchema, req.body)
    const confidential = input.type === 'confidential'
    const secret = confidential ? newClientSecret() : null
    const client = await OAuthClient.create({
      clientId: newClientId(),
      name: input.name,
      confidential,
      secretHash: secret?.secretHash ?? null,
      redirectUris: JSON.stringify(input.redirect_uris),
      grantTypes: JSON.stringify(input.grant_types),
      scopes: JSON.stringify(input.scopes),
      createdBy: req.auth!.id,
    })
    await client.reload()
    res.status(201).json({ client: clientJson(client), ...(secret ? { client_secret: secret.secret } : {}) })
  }
}

/** `PATCH /api/admin/oauth-clients/:id`: its name, redirect URIs, grants and scopes; what it holds already stays valid until it expires. */
export function updateClient(ctx: AppContext): RequestHandler {
  return async (req, res) => {
    const client = await clientOf(req.params.id)
    const input = validate(updateClientSchema.superRefine((value, context) => checkUpdate({ ...value, confidential: client.confidential }, context)), req.body)
    await client.update({ name: input.name, redirectUris: JSON.stringify(input.redirect_uris), grantTypes: JSON.stringify(input.grant_types), scopes: JSON.stringify(input.scopes) })
    clientCache(ctx).changed(client.clientId)
    res.json({ client: clientJson(client) })
  }
}

/** `POST /api/admin/oauth-clients/:id/secret`: a new secret, shown this once; the old one stops working at once. */
export function rotateClientSecret(ctx: AppContext): RequestHandler {
  return async (req, res) => {
    const client = await clientOf(req.params.id)
    if (!client.confidential) throw validationError({ type: ['oauthProvider.publicHasNoSecret'] })
    const secret = newClientSecret()
    await client.update({ secretHash: secret.secretHash })
    clientCache(ctx).changed(client.clientId)
    res.json({ client: clientJson(client), client_secret: secret.secret })
  }
}

/** `DELETE /api/admin/oauth-clients/:id`: the client, and every grant, code and token it holds. */
export function deleteClient(ctx: AppContext): RequestHandler {
  return async (req, res) => {
    const client = await clientOf(req.params.id)
    const people = await OAuthClient.sequelize!.transaction(async (transaction) => {
      const grants = await OidcPayload.findAll({ where: { kind: 'Grant', clientId: client.clientId }, attributes: ['userId'], transaction })
      await OidcPayload.destroy({ where: { clientId: client.clientId }, transaction })
      await client.destroy({ transaction })
      return new Set(grants.flatMap((grant) => (grant.userId === null ? [] : [grant.userId])))
    })
    clientCache(ctx).changed(client.clientId)
    // Its access tokens die on their next request, on every instance, not when the cache forgets.
    for (const userId of people) grantCache(ctx).changed(grantKeyOf(userId, client.clientId))
    res.status(204).end()
  }
}
