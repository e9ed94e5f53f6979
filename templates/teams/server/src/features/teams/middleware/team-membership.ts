import type { Request, RequestHandler } from 'express'
import { QueryTypes } from 'sequelize'
import { idField, notFound, sql, User } from '../../../kernel/index.js'
import { RANK, type TeamRole } from '../models/team-member.js'

/** The team of a team-scoped request, as the membership middleware read it. */
export interface RequestTeam {
  id: number
  name: string
  personal: boolean
}

declare global {
  namespace Express {
    interface Request {
      /** The team of `/api/teams/:id/…`, set by `teamMembership` for its members only. */
      team?: RequestTeam
      /** The requesting user's role in `req.team`. */
      teamRole?: TeamRole
    }
  }
}

/**
 * The role a request acts with in a team: the member's own, or less when the request comes with a
 * credential held to a team (a team's API key) whose role is lower. A service that reads the
 * member's role again under a lock caps it here too.
 */
export function actingRole(req: Request, role: TeamRole): TeamRole {
  const held = req.principal?.restriction
  if (held?.kind !== 'team') return role
  const cap = (held.role !== undefined && Object.hasOwn(RANK, held.role) ? held.role : 'member') as TeamRole
  return RANK[cap] < RANK[role] ? cap : role
}

const membership = sql(`SELECT t.id, t.name, t."personalUserId", m.role FROM team_members m JOIN teams t ON t.id = m."teamId"
  WHERE m."teamId" = $1 AND m."userId" = $2`)

/**
 * THE check of every team-scoped route (after `authenticate`): the `:id` team with the user's
 * role in it, read from the database on every request and never cached, so a removed member's
 * very next request is refused. An id that is not a number, a team that does not exist and one
 * the user is not a member of are all the same 404: nothing tells them apart.
 */
export function teamMembership(param = 'id'): RequestHandler {
  return async (req, _res, next) => {
    const id = idField.safeParse(req.params[param])
    if (!id.success) throw notFound()
    const sequelize = User.sequelize!
    const [row] = await sequelize.query<{ id: number; name: string; personalUserId: number | null; role: TeamRole }>(membership(sequelize), {
      bind: [id.data, req.auth!.id],
      type: QueryTypes.SELECT,
    })
    if (!row) throw notFound()
    // A credential held to a team (a team's API key) acts in that team alone, and with no more
    // than its own role however high its holder's is: a demotion of the holder narrows it at once.
    const held = req.principal?.restriction
    if (held?.kind === 'team' && held.id !== Number(row.id)) throw notFound()
    req.team = { id: Number(row.id), name: row.name, personal: row.personalUserId !== null }
    req.teamRole = actingRole(req, row.role)
    next()
  }
}
