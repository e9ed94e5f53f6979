import { createHash, randomBytes, randomInt, timingSafeEqual } from 'node:crypto'
import type { Request } from 'express'
import { Op } from 'sequelize'
import { type AppContext, idField, notFound, recordCredentialEvent, User } from '../../../kernel/index.js'
import { ssoEvents } from '../events.js'
import { ScimToken } from '../models/scim-token.js'

// A SCIM token is `scim_<id>_<secret>`, as an API key is `cca_<id>_<secret>`: `<id>` 12 letters
// and digits, the public lookup id (its prefix `scim_<id>` names the token in lists and events);
// `<secret>` 256 random bits in base64url, stored only as its SHA-256. A token belongs to a team,
// not a person: it authenticates that team's /scim/v2 and nothing under /api.

const PREFIX = 'scim'
const ALPHANUMERIC = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789'
const TOKEN = /^scim_([A-Za-z0-9]{12})_([A-Za-z0-9_-]{43})$/

type Deps = Pick<AppContext, 'queue' | 'authCache' | 'features' | 'webhooks'>

export const tokenPrefix = (lookupId: string) => `${PREFIX}_${lookupId}`

const sha256 = (secret: string) => createHash('sha256').update(secret, 'utf8').digest()

export function makeToken(): { lookupId: string; token: string; secretHash: string } {
  let lookupId = ''
  for (let i = 0; i < 12; i++) lookupId += ALPHANUMERIC[randomInt(ALPHANUMERIC.length)]
  const secret = randomBytes(32).toString('base64url')
  return { lookupId, token: `${tokenPrefix(lookupId)}_${secret}`, secretHash: sha256(secret).toString('hex') }
}

/** The team a well-formed, live token belongs to, or null: the secret compared in constant time. */
export async function tokenTeam(token: string): Promise<ScimToken | null> {
  const parts = TOKEN.exec(token)
  if (!parts) return null
  const row = await ScimToken.findOne({ where: { lookupId: parts[1]! } })
  if (!row) return null
  const stored = Buffer.from(row.secretHash, 'hex')
  const given = sha256(parts[2]!)
  return stored.length === given.length && timingSafeEqual(stored, given) ? row : null
}

/** Notes the token's use at most once a minute, without holding the request (a failure is only logged). */
export function noteTokenUse(ctx: Pick<AppContext, 'logger'>, row: ScimToken): void {
  const now = Date.now()
  if (row.lastUsedAt && now - new Date(row.lastUsedAt).getTime() < 60_000) return
  ScimToken.update(
    { lastUsedAt: new Date(now) },
    { where: { id: row.id, [Op.or]: [{ lastUsedAt: null }, { lastUsedAt: { [Op.lt]: new Date(now - 60_000) } }] }, silent: true },
  ).catch((error: unknown) => ctx.logger.warn({ err: error, scimToken: row.id }, 'SCIM token: cannot record its last use'))
}

export interface ScimTokenJson {
  id: number
  prefix: string
  created_at: string
  last_used_at: string | null
}

export const scimTokenJson = (row: ScimToken): ScimTokenJson => ({
  id: row.id,
  prefix: tokenPrefix(row.lookupId),
  created_at: new Date(row.createdAt).toISOString(),
  last_used_at: row.lastUsedAt ? new Date(row.lastUsedAt).toISOString() : null,
})

export const teamTokens = (teamId: number) => ScimToken.findAll({ where: { teamId }, order: [['createdAt', 'DESC'], ['id', 'DESC']] })

/** The owner makes a token: the answer holds it, the database its hash, the event its prefix. */
export async function createToken(ctx: Deps, req: Request, teamId: number): Promise<{ id: number; token: string }> {
  const made = makeToken()
  let row: ScimToken | undefined
  await recordCredentialEvent(ctx, ssoEvents.scimTokenCreated, req.auth!.id, {
    req,
    meta: { teamId, prefix: tokenPrefix(made.lookupId) },
    change: async (transaction) => {
      row = await ScimToken.create({ teamId, lookupId: made.lookupId, secretHash: made.secretHash, createdBy: req.auth!.id }, { transaction })
    },
  })
  return { id: row!.id, token: made.token }
}

/** The owner revokes one of the team's tokens: its row goes, its next request is a 401. Another team's id is unknown. */
export async function revokeToken(ctx: Deps, req: Request, teamId: number, tokenId: unknown): Promise<void> {
  const id = idField.safeParse(tokenId)
  const row = id.success ? await ScimToken.findOne({ where: { id: id.data, teamId } }) : null
  if (!row) throw notFound()
  await User.sequelize!.transaction(async (transaction) => {
    await row.destroy({ transaction })
    await recordCredentialEvent(ctx, ssoEvents.scimTokenRevoked, req.auth!.id, { req, meta: { teamId, prefix: tokenPrefix(row.lookupId) }, transaction })
  })
}
