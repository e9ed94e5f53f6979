import type { OAuthClient } from '../models/oauth-client.js'
import { listOf } from './client-metadata.js'

/** A client as the admins' routes answer it: never its secret, which only its making and rotation answer once. */
export const clientJson = (client: OAuthClient) => ({
  id: client.id,
  client_id: client.clientId,
  name: client.name,
  type: client.confidential ? ('confidential' as const) : ('public' as const),
  redirect_uris: listOf(client.redirectUris),
  grant_types: listOf(client.grantTypes),
  scopes: listOf(client.scopes),
  /** Registered by itself (RFC 7591), not by an admin. */
  dynamic: Boolean(client.dynamic),
  createdAt: client.createdAt,
  updatedAt: client.updatedAt,
})
