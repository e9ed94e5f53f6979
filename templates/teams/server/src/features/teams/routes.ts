import { Router } from 'express'
import { type AppContext, authenticate, limiterFactory, precognitive, rateLimitsOf, requireConfirmed } from '../../kernel/index.js'
import { config } from './invitation-config.js'
import { listTeamActivity } from './controllers/activity.js'
import { invitationTeamRoutes } from './invitation-routes.js'
import { destroyMember, listMembers, memberRoleSchema, transferSchema, transferTeam, updateMember } from './controllers/members.js'
import { destroyTeam, listTeams, showTeam, storeTeam, switchTeam, switchTeamSchema, teamNameSchema, updateTeam } from './controllers/teams.js'
import { requireTeamRole } from './middleware/require-team-role.js'
import { teamMembership } from './middleware/team-membership.js'

/**
 * `/api/teams`: the user's teams, and under `/:id` one team, every route behind `teamMembership`
 * (404 for anyone not in it) and `requireTeamRole` where a route is for a role. A
 * router of the layer's own (the invitations') mounts on `team` the same way.
 */
export function teamRoutes(ctx: AppContext): Router {
  const router = Router()
  router.use(authenticate(ctx))
  router.get('/', listTeams())
  // Per creator: each team is one more to invite from (invitation-routes.ts counts invitations per sender too).
  const perCreator = limiterFactory(ctx)({ name: 'teams-created', limit: rateLimitsOf(config, ctx).teamsPerUser, key: (req) => String(req.auth!.id) })
  router.post('/', precognitive(teamNameSchema), perCreator, storeTeam(ctx))
  router.put('/current', precognitive(switchTeamSchema), switchTeam())

  const team = Router({ mergeParams: true })
  router.use('/:id', teamMembership(), team)
  const confirmed = requireConfirmed(ctx)
  team.get('/', showTeam())
  team.patch('/', requireTeamRole('admin'), precognitive(teamNameSchema), updateTeam())
  team.delete('/', requireTeamRole('owner'), confirmed, destroyTeam(ctx))
  team.get('/members', listMembers())
  team.patch('/members/:userId', requireTeamRole('admin'), precognitive(memberRoleSchema), updateMember(ctx))
  // Anyone may leave with their own id; who may remove whom is the rule of services/memberships.ts.
  team.delete('/members/:userId', destroyMember(ctx))
  team.post('/transfer', requireTeamRole('owner'), precognitive(transferSchema), confirmed, transferTeam(ctx))
  team.get('/activity', requireTeamRole('admin'), listTeamActivity(ctx))
  team.use('/invitations', invitationTeamRoutes(ctx))
  return router
}
