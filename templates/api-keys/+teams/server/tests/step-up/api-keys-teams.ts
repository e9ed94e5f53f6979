import { teams } from '../helpers/teams.js'
import type { GuardedRoute } from './types.js'

/** Making a team's key needs a confirmed session, as a personal key does: it outlives the session. */
export const guardedRoutes: GuardedRoute[] = [
  {
    name: "make a team's API key",
    request: async ({ app, cookies }) => {
      const res = await teams(app, cookies).create('Keys')
      if (res.status !== 201) throw new Error(`team not created: ${res.status}`)
      return { method: 'post', path: `/api/teams/${res.body.team.id}/api-keys`, body: { name: 'CI', scopes: ['read'] } }
    },
    success: 201,
  },
]
