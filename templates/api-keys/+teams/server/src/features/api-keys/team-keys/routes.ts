import { Router } from 'express'
import { type AppContext, authenticate, limiterFactory, precognitive, requireConfirmed } from '../../../kernel/index.js'
import { requireTeamRole, teamMembership } from '../../teams/public.js'
import { renameApiKeySchema } from '../controllers/rename-api-key.js'
import { createTeamKey, listTeamKeys, renameTeamKey, revokeTeamKey } from './controllers.js'
import { createTeamKeySchema } from './fields.js'

/**
 * `/api/teams/:id/api-keys`: the team's keys, for its owners and admins (a member 403, anyone
 * else 404, as every team route), from a session only (a key makes or revokes no key: 403, by
 * the kernel's guard: `sessionOnly` in index.ts).
 * Making one needs step-up, as a personal key does.
 */
export function teamKeyRoutes(ctx: AppContext): Router {
  const router = Router({ mergeParams: true })
  const signedIn = authenticate(ctx)
  // The teams router has authenticated the request already (it sees /api/teams first); a key
  // must not be counted against its limit twice.
  router.use((req, res, next) => (req.principal ? next() : signedIn(req, res, next)))
  router.use(teamMembership(), requireTeamRole('admin'))
  router.get('/', listTeamKeys())
  // Each key is a row: per user, as many a minute as the account's own writes, which cover a personal key.
  const perUser = limiterFactory(ctx)({ name: 'team-api-key-create', limit: ctx.rateLimits.accountWritesPerUser, key: (req) => String(req.auth!.id), skip: (req) => req.get('Precognition') === 'true' })
  router.post('/', precognitive(createTeamKeySchema), perUser, requireConfirmed(ctx), createTeamKey(ctx))
  router.patch('/:keyId', precognitive(renameApiKeySchema), renameTeamKey())
  router.delete('/:keyId', revokeTeamKey(ctx))
  return router
}
