import { Router } from 'express'
import { type AppContext, authenticate, limiterFactory, precognitive, rateLimitsOf } from '../../kernel/index.js'
import { config } from './invitation-config.js'
import { acceptInvitation, acceptInvitationSchema } from './controllers/invitation-accept.js'
import { listInvitations } from './controllers/invitation-list.js'
import { revokeInvitationRoute } from './controllers/invitation-revoke.js'
import { sendInvitation, sendInvitationSchema } from './controllers/invitation-send.js'
import { showInvitation } from './controllers/invitation-show.js'
import { requireTeamRole } from './middleware/require-team-role.js'

/**
 * Under /api/teams/:id/invitations, behind the team's membership middleware (`req.team`): owners
 * and admins only. Sending is limited per team and per sender across their teams (each one mails an
 * address of the sender's choosing), counted after the role check so no outsider can use up a team's quota.
 */
export function invitationTeamRoutes(ctx: AppContext): Router {
  const router = Router()
  const limiter = limiterFactory(ctx)
  const perTeam = limiter({ name: 'team-invitations', limit: rateLimitsOf(config, ctx).invitationsPerTeam, key: (req) => String(req.team!.id) })
  const perUser = limiter({ name: 'user-invitations', limit: rateLimitsOf(config, ctx).invitationsPerUser, key: (req) => String(req.auth!.id) })
  router.use(requireTeamRole('admin'))
  router.get('/', listInvitations())
  router.post('/', precognitive(sendInvitationSchema), perTeam, perUser, sendInvitation(ctx))
  router.delete('/:invitationId', revokeInvitationRoute())
  return router
}

/** Under /api/invitations: seeing and accepting need a signed-in account, whose verified address must be the invited one. */
export function invitationAcceptRoutes(ctx: AppContext): Router {
  const router = Router()
  router.post('/show', authenticate(ctx), showInvitation())
  router.post('/accept', authenticate(ctx), precognitive(acceptInvitationSchema), acceptInvitation(ctx))
  return router
}
