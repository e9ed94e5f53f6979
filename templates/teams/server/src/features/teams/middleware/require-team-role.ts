import type { RequestHandler } from 'express'
import { forbidden } from '../../../kernel/index.js'
import { RANK, type TeamRole } from '../models/team-member.js'

/**
 * Place after `teamMembership`: 403 for a member whose role ranks below `least` (owner above
 * admin above member). The only place a route's role is checked; a handler never checks one.
 */
export function requireTeamRole(least: TeamRole): RequestHandler {
  return (req, _res, next) => {
    if (!req.teamRole || RANK[req.teamRole] < RANK[least]) throw forbidden()
    next()
  }
}
