import { teams } from '../helpers/teams.js'
import type { GuardedRoute } from './types.js'

/** Claiming a domain for a team's SSO needs a confirmed session: the domain's addresses then sign in through the team. */
export const guardedRoutes: GuardedRoute[] = [
  {
    name: 'claim a domain for SSO',
    request: async ({ app, cookies }) => {
      const res = await teams(app, cookies).create('Domains')
      if (res.status !== 201) throw new Error(`team not created: ${res.status}`)
      return { method: 'post', path: `/api/teams/${res.body.team.id}/domains`, body: { domain: `step-up-${res.body.team.id}.test` } }
    },
    success: 201,
  },
  {
    name: 'make a SCIM token',
    request: async ({ app, cookies }) => {
      const res = await teams(app, cookies).create('Provisioning')
      if (res.status !== 201) throw new Error(`team not created: ${res.status}`)
      return { method: 'post', path: `/api/teams/${res.body.team.id}/scim-tokens` }
    },
    success: 201,
  },
]
