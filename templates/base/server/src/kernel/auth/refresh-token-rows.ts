import { QueryTypes } from 'sequelize'
import { sql } from '../db/sql.js'
import { RefreshToken } from '../models/index.js'

// What the authentication cache loads of a refresh token (kernel/auth/auth-cache.ts): apart from
// kernel/auth/refresh-tokens.ts, which issues and rotates tokens and so uses the cache, because
// what the cache loads with must not import the cache back.

/** What the middleware's renewal needs of a refresh token, as the authentication cache keeps it. */
export interface RefreshTokenRow {
  userId: number | null
  /** The session the token belongs to. */
  family: string
  revoked: boolean
  /** Epoch milliseconds. */
  expiresAt: number
}

const byJti = sql('SELECT "userId", family, revoked, "expiresAt" FROM refresh_tokens WHERE jti = $1')

export async function loadRefreshTokenRow(jti: string): Promise<RefreshTokenRow | undefined> {
  const sequelize = RefreshToken.sequelize!
  const [row] = await sequelize.query<{ userId: number | null; family: string; revoked: unknown; expiresAt: Date | string }>(byJti(sequelize), {
    bind: [jti],
    type: QueryTypes.SELECT,
  })
  if (!row) return undefined
  // SQLite and MySQL answer a boolean column with 0 or 1, PostgreSQL with false or true: Number() reads all four.
  return { userId: row.userId, family: row.family, revoked: Number(row.revoked) === 1, expiresAt: new Date(row.expiresAt).getTime() }
}
