import { Op } from 'sequelize'
import type { AppContext } from '../../../kernel/index.js'
import { OidcPayload } from '../models/oidc-payload.js'

/** Whether a person still lets a client in, as the API's authentication reads it on every request. */
export interface GrantEntry {
  userId: number
}

export const grantKeyOf = (userId: number, clientId: string) => `${userId}:${clientId}`

/** A live grant of the person to the client: an access token outlives neither its revocation nor the person's revoking events. */
async function loadGrant(key: string): Promise<GrantEntry | undefined> {
  const colon = key.indexOf(':')
  const userId = Number(key.slice(0, colon))
  const live = await OidcPayload.count({
    where: { kind: 'Grant', userId, clientId: key.slice(colon + 1), expiresAt: { [Op.or]: [null, { [Op.gt]: new Date() }] } },
  })
  return live > 0 ? { userId } : undefined
}

/**
 * The kernel's credential cache of grants, by person and client: a hit costs no query, every
 * revoking event of the person (`sessionsChanged`) and a revocation in their connected apps
 * (`changed`) drop it on every instance.
 */
export const grantCache = (ctx: Pick<AppContext, 'authCache'>) => ctx.authCache.credentials<GrantEntry>('oauth-grant', loadGrant)
