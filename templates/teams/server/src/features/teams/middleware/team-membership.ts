import type { RequestHandler } from 'express'
import { QueryTypes } from 'sequelize'
import { idField, notFound, sql, User } from '../../../kernel/index.js'
import type { TeamRole } from '../models/team-member.js'

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
    req.team = { id: Number(row.id), name: row.name, personal: row.personalUserId !== null }
    req.teamRole = row.role
    next()
  }
}
