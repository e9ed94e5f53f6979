import type { RequestHandler } from 'express'
import { type AppContext, fieldError } from '../../../kernel/index.js'
import { createToken, revokeToken, scimTokenJson, teamTokens } from '../services/scim-tokens.js'

// Under /api/teams/:id/scim-tokens, behind the team's membership and `requireTeamRole('owner')`.

/** Behind step-up: 201 `{id, token}`, the one time the token is shown. */
export function storeScimToken(ctx: AppContext): RequestHandler {
  return async (req, res) => {
    // A personal team has no domains to verify, so its SCIM could provision nobody.
    if (req.team!.personal) throw fieldError('team', 'sso.personalTeam')
    res.status(201).json(await createToken(ctx, req, req.team!.id))
  }
}

/** The team's tokens by prefix, when made and last used: never a token. */
export function listScimTokens(): RequestHandler {
  return async (req, res) => {
    res.json({ scim_tokens: (await teamTokens(req.team!.id)).map(scimTokenJson) })
  }
}

/** 204; its next request is a 401. */
export function destroyScimToken(ctx: AppContext): RequestHandler {
  return async (req, res) => {
    await revokeToken(ctx, req, req.team!.id, req.params.tokenId)
    res.status(204).end()
  }
}
