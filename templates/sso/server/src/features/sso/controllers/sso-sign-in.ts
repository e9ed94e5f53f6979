import type { RequestHandler } from 'express'
import { z } from 'zod'
import { type AppContext, emailField, fieldError, HttpError, idField, validate } from '../../../kernel/index.js'
import { SsoDomain } from '../models/sso-domain.js'
import { samlSettings, teamConnection } from '../services/connections.js'
import { domainOfEmail } from '../services/domain-name.js'
import { finishSsoSignIn, SSO_FAILED } from '../services/finish-sign-in.js'
import { startOidc } from '../services/oidc-flows.js'
import { SamlRefusal, samlFor, validateResponse } from '../services/saml.js'
import { ssoAccount } from '../services/sso-accounts.js'

export const ssoStartSchema = z.object({ email: emailField })


/**
 * `POST /api/auth/sso`: "Continue with SSO". An address of a domain a team has verified, and whose
 * team has a connection, gets the IdP's sign-in URL with a fresh request (SAML) or flow (OpenID);
 * any other 422 on `email`. An OpenID provider out of reach is a logged 503.
 */
export function startSso(ctx: AppContext): RequestHandler {
  return async (req, res) => {
    const { email } = validate(ssoStartSchema, req.body)
    const domain = domainOfEmail(email)
    const claimed = domain ? await SsoDomain.findOne({ where: { verifiedDomain: domain }, attributes: ['teamId'] }) : null
    const connection = claimed ? await teamConnection(claimed.teamId) : null
    if (!claimed || !connection) throw fieldError('email', 'sso.noConnection')
    if (connection.type === 'oidc') {
      const redirect = await startOidc(res, ctx, connection).catch((error: unknown) => {
        ctx.logger.warn({ teamId: claimed.teamId, error: String(error) }, 'sso: OpenID provider unavailable')
        res.set('Retry-After', '30')
        throw new HttpError(503, 'errors.serviceUnavailable')
      })
      return void res.json({ redirect })
    }
    const redirect = await samlFor(ctx, claimed.teamId, samlSettings(connection)).getAuthorizeUrlAsync('', undefined, {})
    res.json({ redirect })
  }
}

/**
 * `POST /api/auth/sso/saml/:teamId/acs`: the IdP's answer, posted by the browser. Signed in, the
 * browser goes to the app (or to the second factor, as after a password); refused, to the login
 * page with `sso=failed`, and why to the log.
 */
export function samlAcs(ctx: AppContext): RequestHandler {
  return async (req, res) => {
    const refuse = (reason: string) => {
      ctx.logger.warn({ teamId: req.params.teamId, reason }, 'sso: SAML answer refused')
      res.redirect(303, SSO_FAILED)
    }
    const teamId = idField.safeParse(req.params.teamId)
    const connection = teamId.success ? await teamConnection(teamId.data) : null
    const samlResponse = (req.body as Record<string, unknown> | undefined)?.SAMLResponse
    if (!teamId.success || !connection) return refuse('no connection')
    if (typeof samlResponse !== 'string' || samlResponse.length === 0) return refuse('no SAMLResponse')
    let profile
    try {
      profile = await validateResponse(ctx, teamId.data, samlSettings(connection), samlResponse)
    } catch (error) {
      if (error instanceof SamlRefusal) return refuse(error.message)
      throw error
    }
    const outcome = await ssoAccount(ctx, teamId.data, connection.defaultRole, profile)
    if ('refused' in outcome) return refuse(outcome.refused)
    await finishSsoSignIn(req, res, ctx, teamId.data, outcome)
  }
}
