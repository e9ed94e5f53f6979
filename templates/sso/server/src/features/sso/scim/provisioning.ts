import type { Request } from 'express'
import { type AppContext, inForce, keepingAnAdmin, normaliseEmail, recordCredentialEvent, saveUserChanges, tidyName, User } from '../../../kernel/index.js'
import { addTeamMember, removeTeamMember, setTeamMemberRole, type TeamMember, type TeamRole } from '../../teams/public.js'
import { ssoEvents } from '../events.js'
import { teamConnection } from '../services/connections.js'
import { teamAccount, teamVerified } from '../services/sso-accounts.js'
import { teamAccountRow } from '../services/team-accounts.js'
import { scimMember, scimMembersByEmail, type ScimMember } from './members.js'
import { invalidValue, mutability, scimError, scimNotFound } from './protocol.js'

/** What the IdP says of a user, from a POST, a PUT or a patched resource. */
export interface UserInput {
  userName: string
  externalId: string | null
  /** The name it gives, if any. */
  name: string | undefined
  active: boolean
}

/**
 * Why the account is suspended, as the admins read it: it also marks the suspension as this
 * team's own, the only one its SCIM may lift again.
 */
export const scimSuspension = (teamId: number) => `Deprovisioned by the identity provider of team ${teamId} (SCIM)`

const ownerRefusal = () => mutability("An owner of the team is managed in the app, not through SCIM")

/** The teams' member actions refuse through this, under the team's lock: SCIM never touches an owner. */
const leaveOwners = (member: TeamMember) => {
  if (member.role === 'owner') throw ownerRefusal()
}

/** The role of people the IdP provisions: the connection's, else member. */
const defaultRoleOf = async (teamId: number) => ((await teamConnection(teamId))?.defaultRole ?? 'member') as TeamRole

/**
 * POST /Users: only an address of a domain this team verified (a team never provisions someone
 * else's account); the account with it, or a new one made just now, joins the team.
 */
export async function provision(ctx: AppContext, req: Request, teamId: number, input: UserInput): Promise<ScimMember> {
  const email = normaliseEmail(input.userName)
  if (!email || email.length > 255) throw invalidValue('userName must be an e-mail address')
  if (!(await teamVerified(teamId, email))) throw invalidValue('userName must be an address of a domain the team has verified')
  if ((await scimMembersByEmail(teamId, email)).length > 0) throw scimError(409, 'A user with this userName is in the team already', 'uniqueness')
  const { userId, created } = await teamAccount(ctx, { via: 'scim', req }, teamId, await defaultRoleOf(teamId), email, tidyName(input.name ?? '') || tidyName(email.split('@')[0]!) || email)
  await activate(ctx, req, teamId, userId, { created, externalId: input.externalId })
  if (!input.active) await deprovision(ctx, req, teamId, userId, false)
  return (await scimMember(teamId, String(userId)))!
}

/**
 * Makes the account an active SCIM user of the team again (a member with the default role, if it
 * was not one), lifting the suspension this team's SCIM put on it, and no one else's.
 */
async function activate(ctx: AppContext, req: Request, teamId: number, userId: number, how: { created: boolean; externalId?: string | null }): Promise<void> {
  const row = await teamAccountRow(teamId, userId)
  const user = await User.findByPk(userId)
  if (!user) throw scimNotFound(String(userId))
  const lift = row.created && user.suspendedAt !== null && user.suspensionReason === scimSuspension(teamId)
  const role = await defaultRoleOf(teamId)
  await User.sequelize!.transaction(async (transaction) => {
    await addTeamMember(ctx, teamId, userId, role, { via: 'scim', req, transaction })
    await row.update({ scim: true, active: true, ...(how.externalId !== undefined ? { externalId: how.externalId } : {}) }, { transaction })
    await recordCredentialEvent(ctx, ssoEvents.scimProvisioned, userId, {
      req,
      meta: { teamId, created: how.created, reactivated: !how.created && lift },
      transaction,
      ...(lift ? { userChanged: true, change: () => user.update({ suspendedAt: null, suspendedUntil: null, suspensionReason: null }, { transaction }) } : {}),
    })
  })
}

/**
 * Deactivation (`active: false`) or deletion: the person leaves the team. An account the team's
 * SSO or SCIM made is the team's to end: suspended, its sessions, keys and grants ended at once
 * through the security core. Anyone else's account only loses the team. An owner stays.
 */
export async function deprovision(ctx: AppContext, req: Request, teamId: number, userId: number, deleted: boolean): Promise<void> {
  const user = await User.findByPk(userId)
  if (!user) throw scimNotFound(String(userId))
  await keepingAnAdmin(async (transaction) => {
    // The teams' own removal, as an owner's would be: its lock, invitations, current team, event and webhook.
    await removeTeamMember(ctx, teamId, userId, { via: 'scim', req, transaction, refuse: leaveOwners })
    const row = await teamAccountRow(teamId, userId, transaction)
    const suspend = row.created
    await row.update(deleted ? { scim: false, active: false, externalId: null } : { scim: true, active: false }, { transaction })
    await recordCredentialEvent(ctx, ssoEvents.scimDeprovisioned, userId, {
      req,
      meta: { teamId, deleted, suspended: suspend },
      transaction,
      // A suspension of someone else's (an admin's, with its own end) is left as it is; the sessions end either way.
      ...(suspend
        ? { revoke: 'all' as const, userChanged: true, change: async () => inForce(user) || (await user.update({ suspendedAt: new Date(), suspendedUntil: null, suspensionReason: scimSuspension(teamId) }, { transaction })) }
        : {}),
    })
  }, 'active')
}

/** PUT, and PATCH once applied: what the IdP may change of a team's user. */
export async function updateUser(ctx: AppContext, req: Request, teamId: number, member: ScimMember, input: UserInput): Promise<void> {
  if (normaliseEmail(input.userName) !== member.email) throw mutability("userName is the account's e-mail address: it does not change through SCIM")
  const row = await teamAccountRow(teamId, member.userId)
  if (row.externalId !== input.externalId || !row.scim) await row.update({ externalId: input.externalId, scim: true })
  // Only the team's own accounts take the IdP's name: someone else's account keeps the name they chose.
  const name = tidyName(input.name ?? '')
  if (member.made && name && name !== member.name) {
    const user = await User.findByPk(member.userId)
    if (user) await saveUserChanges(ctx, user, { name })
  }
  const active = member.role !== null
  if (active && !input.active) await deprovision(ctx, req, teamId, member.userId, false)
  if (!active && input.active) await activate(ctx, req, teamId, member.userId, { created: false })
}

/**
 * A group's membership changed: the member's team role follows (never an owner's), through the
 * teams' own role change (its lock, its voiding of invitations an admin sent, its event).
 */
export async function setScimRole(ctx: AppContext, req: Request, teamId: number, userId: number, role: TeamRole): Promise<void> {
  await User.sequelize!.transaction(async (transaction) => {
    const changed = await setTeamMemberRole(ctx, teamId, userId, role, { via: 'scim', req, transaction, refuse: leaveOwners })
    if (!changed) throw invalidValue(`User ${userId} is not an active member of the team`)
    if (changed.from === changed.to) return
    await recordCredentialEvent(ctx, ssoEvents.scimRoleChanged, userId, { req, meta: { teamId, ...changed }, transaction })
  })
}
