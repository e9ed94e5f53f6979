import type { AccountActivity, RowId } from '@/types'
import { t } from '@/lib/i18n'

export type TeamRole = 'owner' | 'admin' | 'member'

/** A team as `GET /api/teams/:id` shows it to one of its members, with that member's role. */
export interface Team {
  id: number
  name: string
  /** The user's own team, made with the account: never shared, never deleted. */
  personal: boolean
  role: TeamRole
}

/** One of the user's teams, as `GET /api/teams` lists them. */
export interface TeamSummary extends Team {
  /** The team the user works in now (`PUT /api/teams/current`). */
  current: boolean
}

/** A row of `GET /api/teams/:id/members`. */
export interface TeamMember {
  id: number
  name: string
  email: string
  role: TeamRole
  joinedAt: string
}

/** A pending invitation, as `GET /api/teams/:id/invitations` lists them. */
export interface TeamInvitation {
  id: RowId
  email: string
  role: InvitationRole
  /** Who sent it: the user's id, name, or the user as an object. */
  invitedBy: number | string | { id: number; name: string } | null
  expiresAt: string
}

/** What an invitation may grant: ownership only ever moves by a transfer. */
export type InvitationRole = Exclude<TeamRole, 'owner'>
export const INVITATION_ROLES: InvitationRole[] = ['member', 'admin']

/** An event of the team, as `GET /api/teams/:id/activity` lists them (the account's activity shape). */
export type TeamActivity = AccountActivity

/** Each role's name, as a catalogue key. */
export const ROLE_LABELS: Record<TeamRole, string> = { owner: 'teams.roles.owner', admin: 'teams.roles.admin', member: 'teams.roles.member' }

/** Owners and admins manage the team: its name, members and invitations. */
export const manages = (role: TeamRole | undefined) => role === 'owner' || role === 'admin'

/**
 * The roles `actor` may give `target` (a member row), as the API allows: an owner any, an admin
 * only `admin` or `member` and never to an owner. Empty: the select is shown read-only.
 */
export function assignableRoles(actor: TeamRole, target: TeamRole): TeamRole[] {
  if (actor === 'owner') return ['owner', 'admin', 'member']
  if (actor === 'admin' && target !== 'owner') return ['admin', 'member']
  return []
}

/** The API path of a team, or of something under it. */
export const teamPath = (...parts: [id: RowId, ...rest: RowId[]]) => `/api/teams/${parts.map((part) => encodeURIComponent(String(part))).join('/')}`

/** Who sent an invitation, in words, when the API says more than an id (or the id is the reader's). */
export function inviterName(invitation: TeamInvitation, me: number | undefined): string | null {
  const by = invitation.invitedBy
  if (typeof by === 'string') return by
  const id = typeof by === 'number' ? by : by?.id
  if (id !== undefined && id === me) return t('teams.invitations.byYou')
  return typeof by === 'object' && by ? by.name : null
}
