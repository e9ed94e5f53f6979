import Bowser from 'bowser'
import type { Request } from 'express'
import { Op, QueryTypes, type Transaction } from 'sequelize'
import { sql } from '../db/sql.js'
import { RefreshToken, Session } from '../models/index.js'

/** Where a sign-in came from, as the sessions page shows it. */
export interface ClientInfo {
  ip: string | null
  userAgent: string | null
}

/** `req.ip` honours TRUST_PROXY; an IPv4 client of a dual-stack socket is shown without `::ffff:`. */
export const clientOf = (req: Request): ClientInfo => ({
  ip: req.ip?.replace(/^::ffff:(?=\d+\.\d+\.\d+\.\d+$)/, '') ?? null,
  userAgent: req.get('user-agent')?.slice(0, 512) || null,
})

const insertSession = sql(
  'INSERT INTO sessions (id, "userId", remember, ip, "userAgent", "createdAt", "lastUsedAt", "expiresAt", "signedInWith", "confirmedUntil", "impersonatorId", "impersonatorSessionId") VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)',
)

/** An admin's session as another user (kernel/auth/impersonation.ts): the admin, and the admin's own session to return to. */
export interface Impersonator {
  id: number
  sessionId: string
}

/**
 * A sign-in confirms its person (step-up) until `confirmedUntil`, as a confirmation would; an
 * impersonation is never confirmed (null): no step-up route is the impersonating admin's.
 */
export async function startSession(id: string, userId: number, remember: boolean, client: ClientInfo, expiresAt: Date, signedInWith: string, confirmedUntil: Date | null, impersonator?: Impersonator): Promise<void> {
  const now = new Date()
  const sequelize = Session.sequelize!
  await sequelize.query(insertSession(sequelize), {
    replacements: [id, userId, remember, client.ip, client.userAgent, now, now, expiresAt, signedInWith, confirmedUntil, impersonator?.id ?? null, impersonator?.sessionId ?? null],
    type: QueryTypes.INSERT,
  })
}

/** What authentication reads of a session on every request, as the authentication cache keeps it. */
export interface SessionState {
  userId: number | null
  revoked: boolean
  /** Epoch milliseconds. */
  expiresAt: number
  lastUsedAt: number
  /** The admin who started it as its user (impersonation), else null. */
  impersonatorId: number | null
}

const byId = sql('SELECT "userId", "revokedAt", "expiresAt", "lastUsedAt", "impersonatorId" FROM sessions WHERE id = $1')

export async function loadSessionState(id: string): Promise<SessionState | undefined> {
  const sequelize = Session.sequelize!
  const [row] = await sequelize.query<{ userId: number | null; revokedAt: unknown; expiresAt: Date | string; lastUsedAt: Date | string; impersonatorId: number | null }>(
    byId(sequelize),
    { bind: [id], type: QueryTypes.SELECT },
  )
  if (!row) return undefined
  return {
    userId: row.userId,
    revoked: row.revokedAt !== null,
    expiresAt: new Date(row.expiresAt).getTime(),
    lastUsedAt: new Date(row.lastUsedAt).getTime(),
    impersonatorId: row.impersonatorId ?? null,
  }
}

export const isLive = (state: SessionState | undefined, userId: number): state is SessionState =>
  state !== undefined && !state.revoked && state.userId === userId && state.expiresAt > Date.now()

/** "Last active" is kept to the minute: one write per session a minute, not one per request. */
const TOUCH_EVERY_MS = 60_000

/** Records that the session was used now, if its last record is older than a minute. Never waits, never fails a request. */
export function touchSession(id: string, state?: SessionState): void {
  const now = Date.now()
  if (state) {
    if (now - state.lastUsedAt < TOUCH_EVERY_MS) return
    state.lastUsedAt = now
  }
  Session.update({ lastUsedAt: new Date(now) }, { where: { id } }).catch(() => {})
}

/**
 * Ends sessions of the given users in the database: all of them, only one (`only`), or all but
 * one (`except`, the session making the request), with their refresh tokens. Only the security
 * core (kernel/security/credential-events.ts) calls this: it also voids pending links and tells the
 * authentication cache of every instance, so access tokens stop working at the next request.
 */
export async function revokeSessionRows(users: number[], options: { only?: string; except?: string; signedInWith?: string; transaction?: Transaction } = {}): Promise<void> {
  const now = new Date()
  const { transaction } = options
  const ids =
    options.only !== undefined
      ? { [Op.eq]: options.only }
      : options.except !== undefined
        ? { [Op.ne]: options.except }
        : options.signedInWith !== undefined
          ? { [Op.in]: (await Session.findAll({ attributes: ['id'], where: { userId: { [Op.in]: users }, signedInWith: options.signedInWith }, transaction })).map((row) => row.id) }
          : undefined
  await Session.update({ revokedAt: now }, { where: { userId: { [Op.in]: users }, revokedAt: null, ...(ids ? { id: ids } : {}) }, transaction })
  await RefreshToken.update(
    { revoked: true, revokedAt: now },
    { where: { userId: { [Op.in]: users }, revoked: false, ...(ids ? { family: ids } : {}) }, transaction },
  )
}

/**
 * Bowser's names of the browsers and systems it knows. Its fallback for an agent it does not know
 * takes the name from the agent's own text, which anyone can write ("this was us, no action
 * needed/1.0"): a device line in a notice or on the activity page must never carry that.
 */
const knownBrowsers = new Set<string>(Object.values(Bowser.BROWSER_MAP))
const knownSystems = new Set<string>(Object.values(Bowser.OS_MAP))

/** "Chrome on Linux", through bowser's user-agent tables; only names those tables hold. */
export function deviceOf(userAgent: string | null): string {
  if (!userAgent) return 'Unknown device'
  const parsed = Bowser.parse(userAgent)
  const browser = parsed.browser.name && knownBrowsers.has(parsed.browser.name) ? parsed.browser.name : undefined
  const os = parsed.os.name && knownSystems.has(parsed.os.name) ? parsed.os.name : undefined
  if (!browser && !os) return 'Unknown device'
  if (!os) return browser!
  if (!browser) return os
  return `${browser} on ${os}`
}

export interface SessionJson {
  id: string
  current: boolean
  device: string
  ip: string | null
  createdAt: string
  lastUsedAt: string
  expiresAt: string
  remember: boolean
  /** Only on an admin's session as this user (impersonation): that admin's id. */
  impersonatorId?: number
}

/**
 * The user's live sessions, the current one first, then the most recently used. An admin signed
 * in as the user shows among them, marked, so the user can see it and end it.
 */
export async function listSessions(userId: number, currentId: string | undefined): Promise<SessionJson[]> {
  const rows = await Session.findAll({
    where: { userId, revokedAt: null, expiresAt: { [Op.gt]: new Date() } },
    order: [['lastUsedAt', 'DESC'], ['createdAt', 'DESC']],
  })
  const json = rows.map((row) => ({
    id: row.id,
    current: row.id === currentId,
    device: deviceOf(row.userAgent),
    ip: row.ip,
    createdAt: row.createdAt.toISOString(),
    lastUsedAt: row.lastUsedAt.toISOString(),
    expiresAt: row.expiresAt.toISOString(),
    remember: Boolean(row.remember),
    ...(row.impersonatorId === null ? {} : { impersonatorId: row.impersonatorId }),
  }))
  return [...json.filter((s) => s.current), ...json.filter((s) => !s.current)]
}

/** A live session of this user, or null (someone else's, unknown, ended). */
export const findLiveSession = (userId: number, id: string) =>
  Session.findOne({ where: { id, userId, revokedAt: null, expiresAt: { [Op.gt]: new Date() } } })
