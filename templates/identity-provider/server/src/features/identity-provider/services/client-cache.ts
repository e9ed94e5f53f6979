import type { ClientMetadata } from 'oidc-provider'
import type { AppContext } from '../../../kernel/index.js'
import { OAuthClient } from '../models/oauth-client.js'
import { clientMetadata } from './client-metadata.js'

/**
 * A registered client as oidc-provider reads it on every request to the token endpoint. A client
 * is no person's: `userId` 0 matches no revoking event, and the admins' changes drop it (`changed`).
 */
export interface ClientEntry {
  userId: 0
  metadata: ClientMetadata
}

async function loadClient(clientId: string): Promise<ClientEntry | undefined> {
  const client = await OAuthClient.findOne({ where: { clientId } })
  return client ? { userId: 0, metadata: clientMetadata(client) } : undefined
}

/**
 * The kernel's credential cache of clients, by client id: a hit costs no query; a change, a new
 * secret or a deletion drops the client on every instance (through Redis; without it, within
 * the cache's few seconds on the others).
 */
export const clientCache = (ctx: Pick<AppContext, 'authCache'>) => ctx.authCache.credentials<ClientEntry>('oauth-client', loadClient)
