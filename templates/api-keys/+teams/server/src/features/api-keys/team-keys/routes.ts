import { Router } from 'express'
import { type AppContext, authenticate, precognitive, requireConfirmed, sessionOnly } from '../../../kernel/index.js'
import { requireTeamRole, teamMembership } from '../../teams/public.js'
import { renameApiKeySchema } from '../controllers/rename-api-key.js'
import { createTeamKey, listTeamKeys, renameTeamKey, revokeTeamKey } from './controllers.js'
import { createTeamKeySchema } from './fields.js'

/**
 * `/api/teams/:id/api-keys`: the team's keys, for its owners and admins (a member 403, anyone
 * else 404, as every team route), from a session only (a key makes or revokes no key: 403).
 * Making one needs step-up, as a personal key does.
 */
export function teamKeyRoutes(ctx: AppContext): Router {
  const router = Router({ mergeParams: true })
  const signedIn = authenticate(ctx)
  // The teams router has authenticated the request already (it sees /api/teams first); a key
  // must not be counted against its limit twice.
  router.use((req, res, next) => (req.principal ? next() : signedIn(req, res, next)))
  router.use(sessionOnly, teamMembership(), requireTeamRole('admin'))
  router.get('/', listTeamKeys())
  router.post('/', precognitive(createTeamKeySchema), requireConfirmed(ctx), createTeamKey(ctx))
  router.patch('/:keyId', precognitive(renameApiKeySchema), renameTeamKey())
  router.delete('/:keyId', revokeTeamKey(ctx))
  return router
}
