import type { Request } from 'express'
import { type AppContext, fieldError, forbidden, notFound, recordCredentialEvent, User } from '../../../kernel/index.js'
import { teamEvents, teamMeta } from '../events.js'
import { Team } from '../models/team.js'
import { TeamMember } from '../models/team-member.js'
import { fallBackToPersonal } from './current-team.js'
import { teamJson, type TeamJson } from './team-json.js'
import { actingRole } from '../middleware/team-membership.js'
import { lockedMember, withTeamLocked } from './team-lock.js'

type Deps = Pick<AppContext, 'queue' | 'authCache' | 'features' | 'webhooks'>

/** A shared team, its creator its owner; it becomes the creator's current team. */
export function createTeam(ctx: Deps, req: Request, name: string): Promise<TeamJson> {
  const userId = req.auth!.id
  return User.sequelize!.transaction(async (transaction) => {
    const team = await Team.create({ name, personalUserId: null }, { transaction })
    await TeamMember.create({ teamId: team.id, userId, role: 'owner' }, { transaction })
    await User.update({ currentTeamId: team.id }, { where: { id: userId }, transaction })
    await recordCredentialEvent(ctx, teamEvents.created, userId, { req, meta: teamMeta(team.id, { name }), transaction })
    return teamJson({ id: team.id, name, personal: false }, 'owner')
  })
}

/**
 * An owner deletes a shared team (a personal one lives as long as its user): its memberships and
 * invitations go with it by the database's cascades, and whoever had it current is back on their
 * personal team.
 */
export function deleteTeam(ctx: Deps, req: Request, teamId: number): Promise<void> {
  return withTeamLocked(teamId, async (transaction) => {
    const actor = await lockedMember(teamId, req.auth!.id, transaction)
    if (!actor) throw notFound()
    if (actingRole(req, actor.role) !== 'owner') throw forbidden()
    const team = (await Team.findByPk(teamId, { transaction }))!
    if (team.personalUserId !== null) throw fieldError('team', 'teams.personalUndeletable')
    await fallBackToPersonal(teamId, transaction)
    await recordCredentialEvent(ctx, teamEvents.deleted, actor.userId, { req, meta: teamMeta(teamId, { name: team.name }), transaction })
    await team.destroy({ transaction })
  }, [req.auth!.id])
}
