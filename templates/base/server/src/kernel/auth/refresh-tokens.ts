import { randomUUID } from 'node:crypto'
import { QueryTypes } from 'sequelize'
import { security } from '../config/security.js'
import { sql } from '../db/sql.js'
import type { AppContext } from '../context.js'
import { RefreshToken } from '../models/index.js'
import { confirmationEnd } from '../security/confirmation.js'
import { originOf, recordCredentialEvent } from '../security/credential-events.js'
import { events } from '../security/events.js'
import { startSession, touchSession, type ClientInfo, type Impersonator } from './sessions.js'
import { nowSeconds, signRefreshToken, verifyRefreshToken } from './tokens.js'

/** What signing a refresh token reads of its row: a model, or the values a login just inserted. */
type SignedRow = Pick<RefreshToken, 'userId' | 'jti' | 'family' | 'expiresAt'>

export interface IssuedRefreshToken {
  row: SignedRow
  token: string
  /** The configured life (`exp - iat`): the cookie's Max-Age, as at login. */
  maxAge: number
}

/**
 * Every token of a family carries the login's `iat` and the family's absolute `exp`, so
 * `exp - iat` is always the configured life and a rotation can never move `exp`. The cookie
 * keeps the configured Max-Age; the token inside it still dies at the family's expiry.
 */
function sign(ctx: AppContext, row: SignedRow, issuedAt: number): IssuedRefreshToken {
  const expiresAt = Math.floor(row.expiresAt.getTime() / 1000)
  return {
    row,
    token: signRefreshToken(ctx.keys, { userId: row.userId as number, jti: row.jti, issuedAt, expiresAt }),
    maxAge: expiresAt - issuedAt,
  }
}

const insertRow = sql('INSERT INTO refresh_tokens ("userId", jti, family, revoked, "expiresAt", "createdAt") VALUES (?, ?, ?, ?, ?, ?)')

/** An impersonation's session (kernel/auth/impersonation.ts): whose, and its life, shorter than a sign-in's. */
export interface ImpersonationStart extends Impersonator {
  lifeSeconds: number
}

/**
 * A login starts a session: a new family whose absolute expiry every later rotation inherits,
 * and the session row the sessions page lists (kernel/auth/sessions.ts).
 */
export async function startRefreshFamily(ctx: AppContext, userId: number, remember: boolean, client: ClientInfo, signedInWith: string, impersonation?: ImpersonationStart): Promise<IssuedRefreshToken> {
  const life = impersonation?.lifeSeconds ?? (remember ? ctx.auth.refreshRememberExpirySeconds : ctx.auth.refreshExpirySeconds)
  const issuedAt = nowSeconds()
  const now = new Date()
  const row = { userId, jti: randomUUID(), family: randomUUID(), expiresAt: new Date((issuedAt + life) * 1000) }
  await startSession(row.family, userId, remember, client, row.expiresAt, signedInWith, impersonation ? null : confirmationEnd(ctx), impersonation)
  // One INSERT, no model instance: the main thread's share of a login is what logins/s lose to
  // bcrypt. Replacements go through Sequelize's escaping, which writes dates as the models do.
  const sequelize = RefreshToken.sequelize!
  await sequelize.query(insertRow(sequelize), {
    replacements: [row.userId, row.jti, row.family, false, row.expiresAt, now],
    type: QueryTypes.INSERT,
  })
  return sign(ctx, row, issuedAt)
}

/**
 * The live refresh token of a session, signed again as it was handed out (its login's `iat`, its
 * family's `exp`): how a browser that put the session aside (an admin impersonating someone)
 * takes it up again without a second live token in the family. Null when the session has none.
 */
export async function resumeRefreshFamily(ctx: AppContext, session: { id: string; userId: number; remember: boolean }): Promise<IssuedRefreshToken | null> {
  const row = await RefreshToken.findOne({ where: { family: session.id, userId: session.userId, revoked: false }, order: [['id', 'DESC']] })
  if (!row || row.expiresAt.getTime() <= Date.now()) return null
  const life = session.remember ? ctx.auth.refreshRememberExpirySeconds : ctx.auth.refreshExpirySeconds
  return sign(ctx, row, Math.floor(row.expiresAt.getTime() / 1000) - life)
}

/** The user and session behind a live refresh JWT, for the middleware's renewal (no rotation), or null. */
export async function findActiveRefreshToken(ctx: AppContext, token: string): Promise<{ userId: number; sessionId: string } | null> {
  const verified = verifyRefreshToken(ctx.keys, token)
  if (!verified.ok) return null
  const row = await ctx.authCache.refreshToken(verified.claims.jti, Number(verified.claims.sub))
  if (!row || row.revoked || row.userId === null || String(row.userId) !== verified.claims.sub || row.expiresAt <= Date.now()) return null
  return { userId: row.userId, sessionId: row.family }
}

/**
 * Exchanges a refresh JWT for its successor.
 *
 * The successor row is inserted first, unreachable until its JWT is handed out; then one
 * conditional UPDATE revokes the presented row only if it is still live. Exactly one concurrent
 * caller wins that update; the losers drop their row and, like any caller presenting the
 * immediate parent within the grace window, receive the winner's successor. Any other reuse of
 * a revoked token revokes the whole family.
 */
export async function rotateRefreshToken(ctx: AppContext, token: string, client: ClientInfo): Promise<IssuedRefreshToken | null> {
  const verified = verifyRefreshToken(ctx.keys, token)
  if (!verified.ok) return null
  let row = await RefreshToken.findOne({ where: { jti: verified.claims.jti } })
  if (!row || row.userId === null || String(row.userId) !== verified.claims.sub) return null
  if (row.expiresAt.getTime() <= Date.now()) return null

  if (!row.revoked) {
    const successor = await RefreshToken.create({ userId: row.userId, jti: randomUUID(), family: row.family, expiresAt: row.expiresAt })
    const [won] = await RefreshToken.update(
      { revoked: true, revokedAt: new Date(), replacedBy: successor.jti },
      { where: { id: row.id, revoked: false } },
    )
    if (won === 1) {
      ctx.authCache.sessionsChanged(row.userId)
      touchSession(row.family)
      return sign(ctx, successor, verified.claims.iat)
    }
    await successor.destroy()
    row = await RefreshToken.findByPk(row.id)
    if (!row) return null
  }

  const graceStart = Date.now() - security.refreshGraceSeconds * 1000
  if (row.replacedBy && row.revokedAt && row.revokedAt.getTime() >= graceStart) {
    const current = await RefreshToken.findOne({ where: { jti: row.replacedBy, revoked: false } })
    if (current && current.expiresAt.getTime() > Date.now()) return sign(ctx, current, verified.claims.iat)
  }
  // Reuse of a spent token: whoever holds the family, thief or owner, is signed out.
  await recordCredentialEvent(ctx, events.sessionsRevoked, row.userId as number, {
    origin: originOf(client),
    sessionId: row.family,
    revoke: { only: row.family },
    meta: { scope: 'one', reason: 'refresh_token_reuse' },
  })
  return null
}
