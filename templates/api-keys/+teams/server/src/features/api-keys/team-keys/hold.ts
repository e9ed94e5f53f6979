import type { Request } from 'express'
import type { Restriction } from '../../../kernel/index.js'
import { TeamMember } from '../../teams/public.js'

/**
 * Where a team's key may go: that team's routes (`/api/teams/<id>` and below) and `GET
 * /api/auth/me`, nothing else (the kernel answers 403). Read on the path as sent, lower-cased as
 * Express routes it; a spelling of the id other than its digits is simply outside.
 */
function withinTeam(req: Request, teamId: number): boolean {
  const path = (req.originalUrl.split('?')[0] ?? '').toLowerCase()
  if (path === '/api/auth/me') return req.method === 'GET' || req.method === 'HEAD'
  return path === `/api/teams/${teamId}` || path.startsWith(`/api/teams/${teamId}/`)
}

/**
 * A team's key holds while its maker is a member of its team, read on every use (never cached):
 * once they leave or are removed, or the team is gone, the key proves nothing (null: 401). Its
 * role is the cap the teams layer's membership middleware applies to the maker's role there.
 */
export async function teamKeyHold(teamId: number, userId: number, role: string | null): Promise<Restriction | null> {
  const member = await TeamMember.findOne({ attributes: ['id'], where: { teamId, userId } })
  if (!member) return null
  return { kind: 'team', id: teamId, role: role ?? 'member', allows: (req) => withinTeam(req, teamId) }
}
