import type { RequestHandler } from 'express'
import type { AppContext } from '../../../kernel/index.js'
import { connectionJson, teamConnection } from '../services/connections.js'
import { domainJson, teamDomains } from '../services/domains.js'
import { serviceProvider } from '../services/service-provider.js'

/** `GET /api/teams/:id/sso` (owners and admins): the connection, the values to give the IdP, the domains. */
export function showSso(ctx: AppContext): RequestHandler {
  return async (req, res) => {
    const teamId = req.team!.id
    const [connection, domains] = await Promise.all([teamConnection(teamId), teamDomains(teamId)])
    res.json({ connection: connection ? connectionJson(connection) : null, sp: serviceProvider(ctx.env.BASE_URL, teamId), domains: domains.map(domainJson) })
  }
}
