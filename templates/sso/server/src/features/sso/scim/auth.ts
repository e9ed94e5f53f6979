import type { RequestHandler } from 'express'
import { type AppContext, countRequest, rateLimitsOf } from '../../../kernel/index.js'
import { config } from '../config.js'
import { noteTokenUse, tokenTeam } from '../services/scim-tokens.js'
import { scimError } from './protocol.js'

const BEARER = /^Bearer\s+(\S+)\s*$/i

/**
 * /scim/v2's own authentication: a team's SCIM token and nothing else (no cookie, no session, no
 * API key), naming the one team the request may see. It is not one of the kernel's
 * `authenticators`: those prove a person for /api, and a SCIM token is no person's, so under /api
 * it proves nothing (401, as any unknown bearer).
 */
export function scimAuthentication(ctx: AppContext): RequestHandler {
  return async (req, res, next) => {
    const token = BEARER.exec(req.get('authorization') ?? '')?.[1]
    const row = token === undefined ? null : await tokenTeam(token)
    if (!row) {
      res.setHeader('WWW-Authenticate', 'Bearer realm="SCIM"')
      throw scimError(401, "A valid SCIM token of the team is required, as 'Authorization: Bearer <token>'")
    }
    // Counted once the token is proved, per token: a stranger cannot use up a team's allowance.
    await countRequest(req, ctx, { name: 'sso-scim', limit: rateLimitsOf(config, ctx).ssoScimPerToken, key: String(row.id) })
    noteTokenUse(ctx, row)
    res.locals.scimTeamId = row.teamId
    next()
  }
}
