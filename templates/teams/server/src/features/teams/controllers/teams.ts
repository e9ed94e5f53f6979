import type { RequestHandler } from 'express'
import { QueryTypes } from 'sequelize'
import { z } from 'zod'
import { type AppContext, idField, nameField, notFound, sql, User, validate } from '../../../kernel/index.js'
import { Team } from '../models/team.js'
import type { TeamRole } from '../models/team-member.js'
import { currentTeamOf } from '../services/current-team.js'
import { teamJson } from '../services/team-json.js'
import { createTeam, deleteTeam } from '../services/teams.js'

export const teamNameSchema = z.object({ name: nameField })
export const switchTeamSchema = z.object({ team_id: idField })

const usersTeams = sql(`SELECT t.id, t.name, t."personalUserId", m.role FROM team_members m JOIN teams t ON t.id = m."teamId"
  WHERE m."userId" = $1 ORDER BY CASE WHEN t."personalUserId" IS NULL THEN 1 ELSE 0 END, t.name, t.id`)

/** The switcher's list: the user's teams, the personal one first, each with their role and whether it is current. */
export function listTeams(): RequestHandler {
  return async (req, res) => {
    const sequelize = User.sequelize!
    const [rows, current] = await Promise.all([
      sequelize.query<{ id: number; name: string; personalUserId: number | null; role: TeamRole }>(usersTeams(sequelize), { bind: [req.auth!.id], type: QueryTypes.SELECT }),
      currentTeamOf(req.auth!.id),
    ])
    const data = rows.map((row) => ({ ...teamJson({ id: Number(row.id), name: row.name, personal: row.personalUserId !== null }, row.role), current: Number(row.id) === current }))
    res.json({ data })
  }
}

export function storeTeam(ctx: AppContext): RequestHandler {
  return async (req, res) => {
    const { name } = validate(teamNameSchema, req.body)
    res.status(201).json({ team: await createTeam(ctx, req, name) })
  }
}

const memberOf = sql(`SELECT t.id, t.name, t."personalUserId", m.role FROM team_members m JOIN teams t ON t.id = m."teamId" WHERE m."teamId" = $1 AND m."userId" = $2`)

/** Another of the user's teams becomes current; one they are not a member of is a 404, as everywhere. */
export function switchTeam(): RequestHandler {
  return async (req, res) => {
    const { team_id: teamId } = validate(switchTeamSchema, req.body)
    const sequelize = User.sequelize!
    const [row] = await sequelize.query<{ id: number; name: string; personalUserId: number | null; role: TeamRole }>(memberOf(sequelize), {
      bind: [teamId, req.auth!.id],
      type: QueryTypes.SELECT,
    })
    if (!row) throw notFound()
    await User.update({ currentTeamId: teamId }, { where: { id: req.auth!.id } })
    res.json({ team: teamJson({ id: Number(row.id), name: row.name, personal: row.personalUserId !== null }, row.role) })
  }
}

export function showTeam(): RequestHandler {
  return (req, res) => {
    res.json({ team: teamJson(req.team!, req.teamRole!) })
  }
}

export function updateTeam(): RequestHandler {
  return async (req, res) => {
    const { name } = validate(teamNameSchema, req.body)
    await Team.update({ name }, { where: { id: req.team!.id } })
    res.json({ team: teamJson({ ...req.team!, name }, req.teamRole!) })
  }
}

export function destroyTeam(ctx: AppContext): RequestHandler {
  return async (req, res) => {
    await deleteTeam(ctx, req, req.team!.id)
    res.status(204).end()
  }
}
