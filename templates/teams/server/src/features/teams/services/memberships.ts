import type { Request } from 'express'
import { type AppContext, confirmationRequired, confirmedUntil, fieldError, forbidden, notFound, recordCredentialEvent } from '../../../kernel/index.js'
import { teamEvents, teamMeta } from '../events.js'
import { TeamMember, type TeamRole } from '../models/team-member.js'
import { fallBackToPersonal } from './current-team.js'
import { voidInvitationsOnMembershipChange } from './invitations.js'
import { actingRole } from '../middleware/team-membership.js'
import { lockedMember, ownerCount, withTeamLocked } from './team-lock.js'

type Deps = Pick<AppContext, 'queue' | 'authCache' | 'features' | 'webhooks'>

const lastOwner = () => fieldError('role', 'teams.lastOwner')

/**
 * The role rules, under the team's lock: an owner sets any role; an admin sets
 * member or admin, never on an owner nor to owner; the last owner is never demoted. The
 * requester's own role is read again under the lock, as it may have changed since the middleware.
 * Making an owner or changing one's role is a transfer of the team in all but name (a stolen
 * session could promote its own address, then demote the real owner): step-up, as a transfer is,
 * decided here because only under the lock is the target's role known for sure.
 */
export function changeRole(ctx: Deps, req: Request, teamId: number, userId: number, role: TeamRole): Promise<TeamMember> {
  return withTeamLocked(teamId, async (transaction) => {
    const actor = await lockedMember(teamId, req.auth!.id, transaction)
    if (!actor) throw notFound()
    const target = actor.userId === userId ? actor : await lockedMember(teamId, userId, transaction)
    if (!target) throw notFound()
    const acting = actingRole(req, actor.role)
    if (acting === 'member') throw forbidden()
    if (acting === 'admin' && (target.role === 'owner' || role === 'owner')) throw forbidden()
    if (target.role === role) return target
    if ((role === 'owner' || target.role === 'owner') && !(await confirmedUntil(actor.userId, req.sessionId, transaction))) throw confirmationRequired()
    if (target.role === 'owner' && (await ownerCount(teamId, transaction)) === 1) throw lastOwner()
    const from = target.role
    await target.update({ role }, { transaction })
    await voidInvitationsOnMembershipChange(teamId, userId, role, transaction)
    await recordCredentialEvent(ctx, teamEvents.roleChanged, userId, { req, meta: teamMeta(teamId, { from, to: role, by: req.auth!.id }), transaction })
    return target
  }, [userId])
}

/**
 * Removal by an owner or an admin (an admin never removes an owner), or a member leaving with
 * their own id; the last owner can do neither. The removed member keeps their sessions and
 * loses the team at their next request (the middleware reads the membership each time).
 */
export function removeMember(ctx: Deps, req: Request, teamId: number, userId: number): Promise<void> {
  return withTeamLocked(teamId, async (transaction) => {
    const actor = await lockedMember(teamId, req.auth!.id, transaction)
    if (!actor) throw notFound()
    const target = actor.userId === userId ? actor : await lockedMember(teamId, userId, transaction)
    if (!target) throw notFound()
    const acting = actingRole(req, actor.role)
    if (target !== actor && (acting === 'member' || (acting === 'admin' && target.role === 'owner'))) throw forbidden()
    if (target.role === 'owner' && (await ownerCount(teamId, transaction)) === 1) throw lastOwner()
    await target.destroy({ transaction })
    await voidInvitationsOnMembershipChange(teamId, userId, null, transaction)
    await fallBackToPersonal(teamId, transaction, userId)
    await recordCredentialEvent(ctx, teamEvents.memberRemoved, userId, { req, meta: teamMeta(teamId, { by: req.auth!.id }), transaction })
  }, [userId])
}

/** The owner hands the team to another member: they become an owner, the old owner an admin. */
export function transferOwnership(ctx: Deps, req: Request, teamId: number, userId: number): Promise<void> {
  return withTeamLocked(teamId, async (transaction) => {
    const actor = await lockedMember(teamId, req.auth!.id, transaction)
    if (!actor) throw notFound()
    if (actingRole(req, actor.role) !== 'owner') throw forbidden()
    if (userId === actor.userId) throw fieldError('user_id', 'teams.chooseAnother')
    const target = await lockedMember(teamId, userId, transaction)
    if (!target) throw notFound()
    await target.update({ role: 'owner' }, { transaction })
    await actor.update({ role: 'admin' }, { transaction })
    await recordCredentialEvent(ctx, teamEvents.ownershipTransferred, actor.userId, { req, meta: teamMeta(teamId, { to: userId }), transaction })
  }, [req.auth!.id])
}
