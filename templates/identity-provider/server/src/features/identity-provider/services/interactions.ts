import type { Request, Response } from 'express'
import type { Client, default as Provider, Grant, Interaction } from 'oidc-provider'
import { type Env, HttpError } from '../../../kernel/index.js'
import { grantIdsOf } from './adapter.js'
import { API_SCOPES_METADATA } from './client-metadata.js'
import { API_SCOPES, apiResourceOf, OPENID_SCOPES } from './urls.js'

/** One answer for an interaction that is unknown, over, or not this browser's: none can be told apart. */
export const interactionGone = () => new HttpError(404, 'oauthProvider.requestGone')

/**
 * The authorization request waiting for this person, found by the cookie oidc-provider set on the
 * browser that began it, and only when it is the one the page names: a person can answer only
 * the request their own browser made, so a link to someone else's request proves nothing.
 */
export async function interactionOf(provider: Provider, req: Request, res: Response): Promise<Interaction> {
  let interaction: Interaction
  try {
    interaction = await provider.interactionDetails(req, res)
  } catch {
    throw interactionGone()
  }
  if (interaction.uid !== req.params.uid) throw interactionGone()
  return interaction
}

/** What the request asks of the person and the client may have: its OpenID scopes and the API's. */
export function requestedScopes(interaction: Interaction, client: Client | undefined): { openid: string[]; api: string[] } {
  const asked = new Set(String(interaction.params.scope ?? '').split(' ').filter(Boolean))
  const metadata = client?.metadata()
  const allowed = new Set(`${metadata?.scope ?? OPENID_SCOPES.join(' ')} ${metadata?.[API_SCOPES_METADATA] ?? ''}`.split(' '))
  const wanted = (scope: string) => asked.has(scope) && allowed.has(scope)
  return { openid: OPENID_SCOPES.filter(wanted), api: API_SCOPES.filter(wanted) }
}

/** The person's grant to this client, if they allowed it before: consents add to it. */
export async function existingGrant(provider: Provider, userId: number, clientId: string, encryptionKey: string): Promise<Grant | undefined> {
  for (const id of (await grantIdsOf(userId, clientId, encryptionKey)).reverse()) {
    const grant = await provider.Grant.find(id)
    if (grant) return grant
  }
  return undefined
}

/** Whether the grant already holds everything asked: the person is not asked again. */
export function covers(grant: Grant | undefined, scopes: { openid: string[]; api: string[] }, env: Pick<Env, 'BASE_URL'>): boolean {
  if (!grant) return false
  const openid = new Set(grant.getOIDCScope().split(' '))
  const api = new Set((grant.getResourceScope(apiResourceOf(env)) ?? '').split(' '))
  return scopes.openid.every((scope) => openid.has(scope)) && scopes.api.every((scope) => api.has(scope))
}
