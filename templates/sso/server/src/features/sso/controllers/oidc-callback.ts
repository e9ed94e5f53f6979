import type { RequestHandler } from 'express'
import { type AppContext, idField } from '../../../kernel/index.js'
import { teamConnection } from '../services/connections.js'
import { finishSsoSignIn, SSO_FAILED } from '../services/finish-sign-in.js'
import { finishOidc, OidcRefusal, type OidcPerson } from '../services/oidc-flows.js'
import { ssoPerson } from '../services/sso-accounts.js'

/**
 * `GET /api/auth/sso/oidc/:teamId/callback`: the OpenID provider's answer, brought by the browser
 * that started the sign-in. Then the same way in as a SAML answer (services/sso-accounts.ts): an
 * address of a domain this team verified, its account or a new member's; refused, the login page
 * with `sso=failed`, and why to the log.
 */
export function oidcCallback(ctx: AppContext): RequestHandler {
  return async (req, res) => {
    res.set('Cache-Control', 'no-store')
    const refuse = (reason: string) => {
      ctx.logger.warn({ teamId: req.params.teamId, reason }, 'sso: OpenID answer refused')
      res.redirect(303, SSO_FAILED)
    }
    const teamId = idField.safeParse(req.params.teamId)
    const connection = teamId.success ? await teamConnection(teamId.data) : null
    if (!teamId.success || !connection || connection.type !== 'oidc') return refuse('no OpenID connection')
    let person: OidcPerson
    try {
      person = await finishOidc(req, res, ctx, connection)
    } catch (error) {
      if (error instanceof OidcRefusal) return refuse(error.message)
      throw error
    }
    const outcome = await ssoPerson(ctx, teamId.data, connection.defaultRole, person.email, person.name ?? '')
    if ('refused' in outcome) return refuse(outcome.refused)
    await finishSsoSignIn(req, res, ctx, teamId.data, outcome)
  }
}
