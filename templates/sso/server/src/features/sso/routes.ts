import { type RequestHandler, Router } from 'express'
import { type AppContext, authenticate, limiterFactory, precognitive, rateLimitsOf, requireConfirmed } from '../../kernel/index.js'
import { requireTeamRole, teamMembership } from '../teams/public.js'
import { config } from './config.js'
import { checkDomain, domainSchema, storeDomain } from './controllers/domains.js'
import { showSso } from './controllers/show-sso.js'

/**
 * `/api/teams/:id/sso` and `/api/teams/:id/domains`: a team's SSO, behind the team's membership
 * (anyone else 404, as every team route); its owners and admins see it, its owners change it,
 * claiming a domain behind step-up. From a session only (`sessionOnly` in index.ts).
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
  router.get('/sso', ...member, requireTeamRole('admin'), showSso(ctx))
  router.post('/domains', ...owner, precognitive(domainSchema), requireConfirmed(ctx), storeDomain(ctx))
  const checks = limiterFactory(ctx)({ name: 'sso-domain-checks', limit: rateLimitsOf(config, ctx).ssoDomainChecksPerUser, key: (req) => String(req.auth!.id) })
  router.post('/domains/:domain/verify', ...owner, checks, checkDomain(ctx))
  return router
}
