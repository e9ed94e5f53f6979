import { User } from '../../../kernel/index.js'
import { TeamMember } from '../../teams/public.js'
import { SsoTeamAccount } from '../models/sso-team-account.js'

/**
 * A SCIM user of a team: one of its members (active), or someone its SCIM deactivated (no longer
 * a member, still known to the IdP as inactive until it deletes them). The SCIM id is the
 * account's id: stable, and the same one the team's member list shows.
 */
export interface ScimMember {
  userId: number
  email: string
  name: string
  /** The team role while a member; null once deactivated. */
  role: string | null
  externalId: string | null
  /** The team's SSO or SCIM made the account. */
  made: boolean
  created: Date
  updated: Date
}

const latest = (...dates: (Date | undefined)[]) => new Date(Math.max(...dates.filter((date): date is Date => date !== undefined).map((date) => new Date(date).getTime())))

/** The ids of the team's SCIM users, ascending: its members and those its SCIM deactivated. */
export async function scimUserIds(teamId: number, only?: number[]): Promise<number[]> {
  const within = only ? { userId: only } : {}
  const [members, inactive] = await Promise.all([
    TeamMember.findAll({ where: { teamId, ...within }, attributes: ['userId'] }),
    SsoTeamAccount.findAll({ where: { teamId, scim: true, active: false, ...within }, attributes: ['userId'] }),
  ])
  return [...new Set([...members, ...inactive].map((row) => row.userId))].sort((a, b) => a - b)
}

/** The team's SCIM users among `ids` (ids of anything else are left out), in the order of `ids`. */
export async function scimMembers(teamId: number, ids: number[]): Promise<ScimMember[]> {
  if (ids.length === 0) return []
  const known = await scimUserIds(teamId, ids)
  if (known.length === 0) return []
  const [users, memberships, rows] = await Promise.all([
    User.findAll({ where: { id: known }, attributes: ['id', 'email', 'name', 'createdAt', 'updatedAt'] }),
    TeamMember.findAll({ where: { teamId, userId: known } }),
    SsoTeamAccount.findAll({ where: { teamId, userId: known } }),
  ])
  const membership = new Map(memberships.map((row) => [row.userId, row]))
  const row = new Map(rows.map((entry) => [entry.userId, entry]))
  const byId = new Map(
    users.map((user) => {
      const member = membership.get(user.id)
      const account = row.get(user.id)
      const entry: ScimMember = {
        userId: user.id,
        email: user.email,
        name: user.name,
        role: member?.role ?? null,
        externalId: account?.externalId ?? null,
        made: account?.created ?? false,
        created: account?.createdAt ?? member?.createdAt ?? user.createdAt,
        updated: latest(user.updatedAt, member?.updatedAt, account?.updatedAt),
      }
      return [user.id, entry] as const
    }),
  )
  return ids.map((id) => byId.get(id)).filter((member): member is ScimMember => member !== undefined)
}

/** One SCIM user of the team by its SCIM id (digits), or null. */
export async function scimMember(teamId: number, id: string): Promise<ScimMember | null> {
  if (!/^\d{1,15}$/.test(id)) return null
  return (await scimMembers(teamId, [Number(id)]))[0] ?? null
}

/** The team's SCIM users with this (normalised) address: none or one. */
export async function scimMembersByEmail(teamId: number, email: string): Promise<ScimMember[]> {
  const user = await User.findOne({ where: { email }, attributes: ['id'] })
  return user ? scimMembers(teamId, [user.id]) : []
}

/** The team's SCIM users its IdP knows by `externalId`. */
export async function scimMembersByExternalId(teamId: number, externalId: string): Promise<ScimMember[]> {
  const rows = await SsoTeamAccount.findAll({ where: { teamId, externalId }, attributes: ['userId'], order: [['userId', 'ASC']] })
  return scimMembers(teamId, rows.map((row) => row.userId))
}

/** The user as SCIM writes it (RFC 7643 §4.1), before SCIMMY's schema shapes it and applies `attributes`. */
export const userResource = (member: ScimMember) => ({
  id: String(member.userId),
  ...(member.externalId ? { externalId: member.externalId } : {}),
  userName: member.email,
  name: { formatted: member.name },
  displayName: member.name,
  emails: [{ value: member.email, type: 'work', primary: true }],
  active: member.role !== null,
  meta: { created: member.created, lastModified: member.updated },
})
