import type { RequestHandler } from 'express'
import { z } from 'zod'
import { type AppContext, idField, msg, notFound, pageQuery, paginated, searchQuery, sizeQuery, validate } from '../../../kernel/index.js'
import { TEAM_ROLES } from '../models/team-member.js'
import { findMemberPage, memberSortQuery } from '../services/member-list.js'
import { changeRole, removeMember, transferOwnership } from '../services/memberships.js'

export const memberQuery = z.object({ page: pageQuery, size: sizeQuery, search: searchQuery, sort: memberSortQuery })
export const memberRoleSchema = z.object({ role: z.enum(TEAM_ROLES, { error: msg('teams.memberRole', { roles: TEAM_ROLES.join(', ') }) }) })
export const transferSchema = z.object({ user_id: idField })

/** A user id in the path: one that cannot be an id is a member nobody can see, 404. */
function memberId(value: unknown): number {
  const id = idField.safeParse(value)
  if (!id.success) throw notFound()
  return id.data
}

/** The team's members in the users list's paginated shape, for the DataTable. */
export function listMembers(): RequestHandler {
  return async (req, res) => {
    const { page, size, ...query } = validate(memberQuery, req.query)
    const { rows, total } = await findMemberPage(req.team!.id, query, page, size)
    res.json({ data: paginated(rows, total, page, size, `/api/teams/${req.team!.id}/members`) })
  }
}

export function updateMember(ctx: AppContext): RequestHandler {
  return async (req, res) => {
    const userId = memberId(req.params.userId)
    const { role } = validate(memberRoleSchema, req.body)
    const member = await changeRole(ctx, req, req.team!.id, userId, role)
    res.json({ member: { id: member.userId, role: member.role } })
  }
}

export function destroyMember(ctx: AppContext): RequestHandler {
  return async (req, res) => {
    await removeMember(ctx, req, req.team!.id, memberId(req.params.userId))
    res.status(204).end()
  }
}

export function transferTeam(ctx: AppContext): RequestHandler {
  return async (req, res) => {
    const { user_id: userId } = validate(transferSchema, req.body)
    await transferOwnership(ctx, req, req.team!.id, userId)
    res.json({ team: { id: req.team!.id, name: req.team!.name, personal: req.team!.personal, role: 'admin' } })
  }
}
