import { type RequestHandler, Router } from 'express'
import { type AppContext, authenticate, ipOf, limiterFactory, precognitive, rateLimitsOf, requireConfirmed } from '../../kernel/index.js'
import { requireTeamRole, teamMembership } from '../teams/public.js'
import { config } from './config.js'
import { connectionSchema, destroyConnection, putConnection } from './controllers/connection.js'
import { checkDomain, domainSchema, storeDomain } from './controllers/domains.js'
import { oidcCallback } from './controllers/oidc-callback.js'
import { samlMetadata } from './controllers/saml-metadata.js'
import { destroyScimToken, listScimTokens, storeScimToken } from './controllers/scim-tokens.js'
import { showSso } from './controllers/show-sso.js'
import { samlAcs, ssoStartSchema, startSso } from './controllers/sso-sign-in.js'

/** The IdP's answer: a form post from the IdP's page (`formPosts` in index.ts). */
export const SAML_ACS_PATH = '/api/auth/sso/saml/:teamId/acs'

/**
 * `/api/teams/:id/sso`, `/api/teams/:id/domains` and `/api/teams/:id/scim-tokens`: a team's SSO, behind the team's membership
 * (anyone else 404, as every team route); its owners and admins see it, its owners change it,
 * behind step-up but for checking a domain. From a session only (`sessionOnly` in index.ts).
 */
export function ssoTeamRoutes(ctx: AppContext): Router {
  const router = Router({ mergeParams: true })
  const signedIn = authenticate(ctx)
  // The teams router has authenticated the request already (it sees /api/teams first); a request
  // must not be counted against the limits twice. Each route names its guards, so that the team's
  // other paths under /api/teams/:id pass through untouched.
  const signedInOnce: RequestHandler = (req, res, next) => (req.principal ? next() : signedIn(req, res, next))
  const member = [signedInOnce, teamMembership()]
  const owner = [...member, requireTeamRole('owner')]
  const confirmed = requireConfirmed(ctx)
  router.get('/sso', ...member, requireTeamRole('admin'), showSso(ctx))
  router.put('/sso', ...owner, precognitive(connectionSchema), confirmed, putConnection(ctx))
  router.delete('/sso', ...owner, confirmed, destroyConnection(ctx))
  router.post('/domains', ...owner, precognitive(domainSchema), confirmed, storeDomain(ctx))
  const checks = limiterFactory(ctx)({ name: 'sso-domain-checks', limit: rateLimitsOf(config, ctx).ssoDomainChecksPerUser, key: (req) => String(req.auth!.id) })
  router.post('/domains/:domain/verify', ...owner, checks, checkDomain(ctx))
  // A SCIM token provisions and deprovisions the team's people: made behind step-up, as a connection is.
  router.get('/scim-tokens', ...owner, listScimTokens())
  router.post('/scim-tokens', ...owner, confirmed, storeScimToken(ctx))
  router.delete('/scim-tokens/:tokenId', ...owner, destroyScimToken(ctx))
  return router
}

/** On /api/auth: "Continue with SSO", the SP metadata and the IdP's answers (SAML's posted, OpenID's brought back), signed out. */
export function ssoAuthRoutes(router: Router, ctx: AppContext): void {
  const limits = rateLimitsOf(config, ctx)
  const limiter = limiterFactory(ctx)
  router.post('/sso', limiter({ name: 'sso-start', limit: limits.ssoStartPerIp, key: ipOf }), precognitive(ssoStartSchema), startSso(ctx))
  router.get('/sso/saml/:teamId/metadata', samlMetadata(ctx))
  router.post('/sso/saml/:teamId/acs', limiter({ name: 'sso-answer', limit: limits.ssoAnswerPerIp, key: ipOf }), samlAcs(ctx))
  router.get('/sso/oidc/:teamId/callback', limiter({ name: 'sso-oidc-answer', limit: limits.ssoAnswerPerIp, key: ipOf }), oidcCallback(ctx))
}
