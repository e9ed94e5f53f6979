import { randomBytes } from 'node:crypto'
import { Op, type Transaction } from 'sequelize'
import { fieldError, findUserByEmail, findUserById, hashToken, type JobDeps, linkWithToken, type Locale, mailLocale, newOneTimeToken, translator, User } from '../../../kernel/index.js'
import { TeamInvitation, type InvitationRole } from '../models/invitation.js'
import { Team } from '../models/team.js'
import { RANK, TeamMember, type TeamRole } from '../models/team-member.js'
import { invitationMessage } from './invitation-message.js'
import { lockedMember } from './team-lock.js'

export const INVITATION_DAYS = 7

/** Who may invite: whom `requireTeamRole('admin')` lets through to the invitation routes. */
const mayInvite = (role: TeamRole) => RANK[role] >= RANK.admin

/** What a row holds until its link is mailed: not a SHA-256 hex digest, so no token matches it, and unique like one. */
const unsent = () => `unsent:${randomBytes(24).toString('hex')}`

const live = () => ({ expiresAt: { [Op.gt]: new Date() } })

/**
 * The request's part (`POST /api/teams/:id/invitations`), under the team's lock and in the
 * transaction of its event: the invitation exists, and can be voided, from the moment the request
 * is accepted, even while its mail waits for SMTP. An earlier invitation of the address to the
 * team is replaced, so its link dies. Returns the row's id, all the job gets.
 */
export async function startInvitation(values: { teamId: number; email: string; role: InvitationRole; invitedBy: number }, transaction: Transaction): Promise<number> {
  await TeamInvitation.destroy({ where: { teamId: values.teamId, email: values.email }, transaction })
  const row = await TeamInvitation.create(
    { ...values, tokenHash: unsent(), expiresAt: new Date(Date.now() + INVITATION_DAYS * 24 * 3600 * 1000) },
    { transaction },
  )
  return row.id
}

/**
 * The job `team:invitation`: it only delivers, and only while the request's row lives. An
 * address that is already a member's gets nothing (the request answered the same, so the
 * inviter learns nothing new; the team's members are listed anyway). The token is made here and
 * its hash set by a statement that finds the row still there, so neither the outbox nor the
 * database ever holds it; a retry makes a new one (the earlier mail never arrived). In the
 * invitee's language when the address has an account, else in the inviting request's.
 */
export async function mailInvitation(deps: Pick<JobDeps, 'env' | 'mailer'>, invitationId: number, locale?: Locale): Promise<void> {
  const row = await TeamInvitation.findOne({ where: { id: invitationId, ...live() } })
  if (!row) return
  const [team, inviter, invitee] = await Promise.all([Team.findByPk(row.teamId), findUserById(row.invitedBy), findUserByEmail(row.email)])
  if (!team || !inviter) return
  if (invitee && (await TeamMember.count({ where: { teamId: row.teamId, userId: invitee.id } })) > 0) {
    await TeamInvitation.destroy({ where: { id: row.id } })
    return
  }
  const token = newOneTimeToken()
  const [minted] = await TeamInvitation.update({ tokenHash: hashToken(token) }, { where: { id: row.id, ...live() } })
  if (minted !== 1) return
  // The address rides along so a signed-out visitor's login or sign-up form starts with it.
  const url = linkWithToken(deps.env.BASE_URL, 'invitations/accept', token, row.email)
  const site = new URL(deps.env.BASE_URL).host
  await deps.mailer.send(invitationMessage(translator(mailLocale(invitee?.locale, locale)), row.email, site, row.role, url, INVITATION_DAYS))
}

/** Unknown, expired, used, voided and someone else's links alike: one answer, so the route is no oracle. */
export const invalidInvitation = () => fieldError('token', 'teams.invitationInvalid')

/** A live invitation by its token, or null. */
export const findInvitation = (token: string) => TeamInvitation.findOne({ where: { tokenHash: hashToken(token), ...live() } })

/**
 * Uses an invitation for the signed-in user, under the team's lock (services/team-lock.ts): the
 * conditional delete decides a race, so of two uses one wins. The link works only for an account
 * whose verified address is the invited one (the mail alone is never enough), and only while its
 * sender may still invite to the team: a demoted or removed sender's links are voided when that
 * happens (voidInvitationsOnMembershipChange), and the right is checked here as well, so a way of
 * losing it added later cannot leave them working. A member already keeps their role.
 */
export async function useInvitation(invitation: TeamInvitation, userId: number, transaction: Transaction): Promise<{ role: TeamRole; joined: boolean }> {
  if ((await TeamInvitation.destroy({ where: { id: invitation.id, tokenHash: invitation.tokenHash }, transaction })) !== 1) throw invalidInvitation()
  const user = await User.findByPk(userId, { attributes: ['id', 'email', 'emailVerifiedAt'], transaction })
  if (!user || user.emailVerifiedAt === null || user.email !== invitation.email) throw invalidInvitation()
  const inviter = await lockedMember(invitation.teamId, invitation.invitedBy, transaction)
  if (!inviter || !mayInvite(inviter.role)) throw invalidInvitation()
  const member = await lockedMember(invitation.teamId, userId, transaction)
  if (member) return { role: member.role, joined: false }
  await TeamMember.create({ teamId: invitation.teamId, userId, role: invitation.role }, { transaction })
  return { role: invitation.role, joined: true }
}

/** The pending invitations of a team, newest first, as the owners and admins see them. */
export async function pendingInvitations(teamId: number) {
  const rows = await TeamInvitation.findAll({ where: { teamId, ...live() }, order: [['id', 'DESC']] })
  return rows.map((row) => ({ id: row.id, email: row.email, role: row.role, invitedBy: row.invitedBy, expiresAt: row.expiresAt }))
}

/** Revokes one invitation of the team; false when the team has no such invitation. */
export async function revokeInvitation(teamId: number, invitationId: number): Promise<boolean> {
  return (await TeamInvitation.destroy({ where: { id: invitationId, teamId } })) === 1
}

/**
 * Call in the transaction of every change to a membership (`role`: the new one; null when the
 * member was removed or left). A member who may no longer invite takes the links they sent to the
 * team with them; a removed one also every pending link of their own address, so that only a new
 * invitation, the team's decision, lets them back in.
 */
export async function voidInvitationsOnMembershipChange(teamId: number, userId: number, role: TeamRole | null, transaction: Transaction): Promise<void> {
  if (role !== null && mayInvite(role)) return
  const addressed = role === null ? await User.findByPk(userId, { attributes: ['email'], transaction }) : null
  const mine = addressed ? [{ invitedBy: userId }, { email: addressed.email }] : [{ invitedBy: userId }]
  await TeamInvitation.destroy({ where: { teamId, [Op.or]: mine }, transaction })
}
