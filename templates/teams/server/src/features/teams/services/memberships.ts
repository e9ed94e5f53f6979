import type { Request } from 'express'
import type { Transaction } from 'sequelize'
import { type AppContext, confirmationRequired, confirmedUntil, fieldError, forbidden, notFound, recordCredentialEvent } from '../../../kernel/index.js'
import { teamEvents, teamMeta } from '../events.js'
import { TeamMember, type TeamRole } from '../models/team-member.js'
import { fallBackToPersonal } from './current-team.js'
import { voidInvitationsOnMembershipChange } from './invitations.js'
import { actingRole } from '../middleware/team-membership.js'
import { lockedMember, lockTeam, ownerCount, withTeamLocked } from './team-lock.js'

type Deps = Pick<AppContext, 'queue' | 'authCache' | 'features' | 'webhooks'>

const lastOwner = () => fieldError('role', 'teams.lastOwner')

/**
 * A role change itself, under the team's lock, whoever asked: the last owner is never demoted,
 * invitations the member may no longer send are voided, the event (`meta`: who asked) recorded.
 */
async function setLockedRole(ctx: Deps, req: Request | undefined, teamId: number, target: TeamMember, role: TeamRole, meta: Record<string, unknown>, transaction: Transaction): Promise<TeamMember> {
  if (target.role === role) return target
  if (target.role === 'owner' && (await ownerCount(teamId, transaction)) === 1) throw lastOwner()
  const from = target.role
  await target.update({ role }, { transaction })
  await voidInvitationsOnMembershipChange(target.teamId, target.userId, role, transaction)
  await recordCredentialEvent(ctx, teamEvents.roleChanged, target.userId, { req, meta: teamMeta(teamId, { from, to: role, ...meta }), transaction })
  return target
}

/**
 * A removal itself, under the team's lock, whoever asked: the last owner never goes; the
 * invitations the member sent or was sent are voided; whoever had the team current is back on
 * their personal team; the event (`meta`: who asked) recorded, and with it the team's webhook.
 */
async function removeLockedMember(ctx: Deps, req: Request | undefined, teamId: number, target: TeamMember, meta: Record<string, unknown>, transaction: Transaction): Promise<void> {
  if (target.role === 'owner' && (await ownerCount(teamId, transaction)) === 1) throw lastOwner()
  await target.destroy({ transaction })
  await voidInvitationsOnMembershipChange(teamId, target.userId, null, transaction)
  await fallBackToPersonal(teamId, transaction, target.userId)
  await recordCredentialEvent(ctx, teamEvents.memberRemoved, target.userId, { req, meta: teamMeta(teamId, meta), transaction })
}

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
    return setLockedRole(ctx, req, teamId, target, role, { by: req.auth!.id }, transaction)
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
    await removeLockedMember(ctx, req, teamId, target, { by: req.auth!.id }, transaction)
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

/**
 * How another slice changes a team's members on the team's behalf (SCIM's provisioning, SSO's
 * sign-in), where no member asks and so no member's rights are checked.
 */
export interface SliceMemberChange {
  /** Who acts, as the event's `meta.via` names it: 'scim', 'sso'. */
  via: string
  /** The request that caused it, for the event's origin. */
  req?: Request
  /**
   * The caller's transaction, when its own writes must commit with the change (the team's lock is
   * taken in it, after the member's user row): else the change runs in one of its own.
   */
  transaction?: Transaction
  /** The caller's own refusal, seeing the membership as it stands under the lock (SCIM leaves owners alone). */
  refuse?: (member: TeamMember) => void
}

const underLock = <T>(teamId: number, userId: number, change: SliceMemberChange, work: (transaction: Transaction) => Promise<T>): Promise<T> =>
  change.transaction
    ? lockTeam(teamId, change.transaction, [userId]).then(() => work(change.transaction!))
    : withTeamLocked(teamId, work, [userId])

/**
 * `userId` joins the team with `role` under the team's lock, with the team's `member_added`
 * event and webhook; a member already keeps their role. What an accepted invitation does, but the
 * person's current team stays theirs to choose.
 */
export function addTeamMember(ctx: Deps, teamId: number, userId: number, role: TeamRole, change: SliceMemberChange): Promise<{ role: TeamRole; joined: boolean }> {
  return underLock(teamId, userId, change, async (transaction) => {
    const member = await lockedMember(teamId, userId, transaction)
    if (member) {
      change.refuse?.(member)
      return { role: member.role, joined: false }
    }
    await TeamMember.create({ teamId, userId, role }, { transaction })
    await recordCredentialEvent(ctx, teamEvents.memberAdded, userId, { req: change.req, meta: teamMeta(teamId, { role, via: change.via }), transaction })
    return { role, joined: true }
  })
}

/** `changeRole`'s rules and effects, on the team's behalf: the role before and after, null when `userId` is no member. */
export function setTeamMemberRole(ctx: Deps, teamId: number, userId: number, role: TeamRole, change: SliceMemberChange): Promise<{ from: TeamRole; to: TeamRole } | null> {
  return underLock(teamId, userId, change, async (transaction) => {
    const target = await lockedMember(teamId, userId, transaction)
    if (!target) return null
    change.refuse?.(target)
    const from = target.role
    await setLockedRole(ctx, change.req, teamId, target, role, { via: change.via }, transaction)
    return { from, to: role }
  })
}

/** `removeMember`'s rules and effects, on the team's behalf: false when `userId` is no member. */
export function removeTeamMember(ctx: Deps, teamId: number, userId: number, change: SliceMemberChange): Promise<boolean> {
  return underLock(teamId, userId, change, async (transaction) => {
    const target = await lockedMember(teamId, userId, transaction)
    if (!target) return false
    change.refuse?.(target)
    await removeLockedMember(ctx, change.req, teamId, target, { via: change.via }, transaction)
    return true
  })
}
