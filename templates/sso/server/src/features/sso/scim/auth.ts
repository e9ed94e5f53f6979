import type { RequestHandler } from 'express'
import { type AppContext, type Authenticator, countRequest, rateLimitsOf } from '../../../kernel/index.js'
import { config } from '../config.js'
import { noteTokenUse, tokenPrefix, tokenTeam } from '../services/scim-tokens.js'
import { scimError } from './protocol.js'

/** Where SCIM lives, under the app's root (not /api: SCIM is its own protocol, with its own errors). */
export const SCIM_PATH = '/scim/v2'

/** The restriction's kind: the one team's SCIM routes. */
const SCIM = 'scim'

const SCIM_BEARER = /^Bearer\s+(scim_\S+)\s*$/i

const underScim = (url: string) => url === SCIM_PATH || url.startsWith(`${SCIM_PATH}/`) || url.startsWith(`${SCIM_PATH}?`)

/**
 * A team's SCIM token (`scim_<id>_<secret>`), through the kernel's `authenticators` point as every
 * way in: it acts as the owner who made it (a token whose maker's account is gone proves nothing),
 * held to its team's /scim/v2 by its restriction, so anywhere under /api it is a 403. Counted per
 * token once proved: a stranger cannot use up a team's allowance.
 */
export const scimTokenAuthenticator: Authenticator<AppContext> = {
  name: 'scim-token',
  async authenticate(req, header, ctx) {
    const token = SCIM_BEARER.exec(header)?.[1]
    if (token === undefined) return undefined
    const row = await tokenTeam(token)
    if (!row || row.createdBy === null) return null
    await countRequest(req, ctx, { name: 'sso-scim', limit: rateLimitsOf(config, ctx).ssoScimPerToken, key: String(row.id) })
    noteTokenUse(ctx, row)
    return {
      userId: row.createdBy,
      scopes: ['read', 'write'],
      credentialId: tokenPrefix(row.lookupId),
      restriction: { kind: SCIM, id: row.teamId, allows: (request) => underScim(request.originalUrl) },
    }
  },
}

/**
 * After the kernel's `authenticate`: /scim/v2 takes a SCIM token and nothing else (no cookie, no
 * session, no API key), and sees the one team it names (`teamOf`).
 */
export const scimTokenOnly: RequestHandler = (req, res, next) => {
  const restriction = req.principal?.restriction
  if (restriction?.kind !== SCIM) throw scimError(401, "A valid SCIM token of the team is required, as 'Authorization: Bearer <token>'")
  res.locals.scimTeamId = restriction.id
  next()
}
