import type { AppContext, FeatureMigrations, RouteDoc } from '../../../kernel/index.js'
import type { Router } from 'express'
import * as addTeamKeys from '../migrations/0002-add-team-keys.js'
import { teamKeyMessages } from './messages.js'
import { teamKeyRoutes } from './routes.js'

/**
 * Team keys, what the API-key layer adds with the teams layer on (`templates/api-keys/+teams/`):
 * keys owned by a team, made and revoked by its owners and admins under /api/teams/:id/api-keys,
 * acting as their maker within that team only, with at most the key's role.
 */
export const teamKeys = {
  // Released migrations keep their names: the database records them by name.
  migrations: [{ name: 'api-keys-0002-add-team-keys', ...addTeamKeys }] satisfies FeatureMigrations,
  messages: teamKeyMessages,
  openapi: async (): Promise<RouteDoc[]> => (await import('./openapi.js')).routeDocs,
  routes: (router: Router, ctx: AppContext) => void router.use('/teams/:id/api-keys', teamKeyRoutes(ctx)),
  /** Only a session makes, lists or revokes a team's keys. */
  sessionOnly: ['/api/teams/:id/api-keys'],
}
