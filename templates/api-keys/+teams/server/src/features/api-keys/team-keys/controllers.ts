import type { RequestHandler } from 'express'
import { type AppContext, fieldError, idField, notFound, recordCredentialEvent, validate } from '../../../kernel/index.js'
import { RANK, type TeamRole } from '../../teams/public.js'
import { ApiKey } from '../models/api-key.js'
import { keyCache } from '../services/key-cache.js'
import { makeKey, prefixOf } from '../services/keys.js'
import { renameApiKeySchema } from '../controllers/rename-api-key.js'
import { teamKeyEvents } from './events.js'
import { createTeamKeySchema } from './fields.js'
import { teamKeyJson } from './team-key-json.js'

// Under /api/teams/:id/api-keys, behind the team's membership middleware and `requireTeamRole('admin')`:
// `req.team` is the team, `req.teamRole` the requester's role in it.

/** A live key of this team by its id: another team's, a personal one, a revoked one or a made-up id are all unknown. */
async function findTeamKey(teamId: number, id: string): Promise<ApiKey | null> {
  const parsed = idField.safeParse(id)
  return parsed.success ? ApiKey.findOne({ where: { id: parsed.data, teamId, revokedAt: null } }) : null
}

/** Every live key of the team, whoever made it, newest first. */
export function listTeamKeys(): RequestHandler {
  return async (req, res) => {
    const rows = await ApiKey.findAll({ where: { teamId: req.team!.id, revokedAt: null }, order: [['createdAt', 'DESC'], ['id', 'DESC']] })
    res.json({ data: rows.map(teamKeyJson) })
  }
}

/**
 * Behind step-up. The key acts as its maker within the team, with at most `role` (their own role
 * by default, never above it: 422 `errors.role`). The key is in this answer and nowhere else.
 */
export function createTeamKey(ctx: AppContext): RequestHandler {
  return async (req, res) => {
    const { name, scopes, role: asked, expires_in } = validate(createTeamKeySchema, req.body)
    const mine = req.teamRole!
    const role: TeamRole = asked ?? mine
    if (RANK[role] > RANK[mine]) throw fieldError('role', 'teamApiKeys.roleAbove')
    const teamId = req.team!.id
    const userId = req.auth!.id
    const made = makeKey()
    let created: ApiKey | undefined
    await recordCredentialEvent(ctx, teamKeyEvents.created, userId, {
      req,
      meta: { teamId, name, prefix: prefixOf(made.lookupId), role },
      change: async (transaction) => {
        created = await ApiKey.create(
          {
            userId,
            teamId,
            role,
            name,
            lookupId: made.lookupId,
            secretHash: made.secretHash,
            scopes: JSON.stringify(scopes),
            expiresAt: expires_in === null ? null : new Date(Date.now() + expires_in * 1000),
          },
          { transaction },
        )
        await created.reload({ transaction })
      },
    })
    res.status(201).json({ api_key: teamKeyJson(created!), key: made.key })
  }
}

/** A label only: what the key may do does not change, so no event. */
export function renameTeamKey(): RequestHandler {
  return async (req, res) => {
    const { name } = validate(renameApiKeySchema, req.body)
    const key = await findTeamKey(req.team!.id, String(req.params.keyId))
    if (!key) throw notFound()
    await key.update({ name })
    res.json({ api_key: teamKeyJson(key) })
  }
}

/** Any owner or admin of the team revokes any of its keys; its very next request is a 401. */
export function revokeTeamKey(ctx: AppContext): RequestHandler {
  return async (req, res) => {
    const teamId = req.team!.id
    const key = await findTeamKey(teamId, String(req.params.keyId))
    if (!key) throw notFound()
    await recordCredentialEvent(ctx, teamKeyEvents.revoked, req.auth!.id, {
      req,
      meta: { teamId, name: key.name, prefix: prefixOf(key.lookupId) },
      change: async (transaction) => {
        const [revoked] = await ApiKey.update({ revokedAt: new Date() }, { where: { id: key.id, teamId, revokedAt: null }, transaction })
        if (revoked === 0) throw notFound()
      },
    })
    keyCache(ctx).changed(key.lookupId)
    res.status(204).end()
  }
}
