import { QueryTypes } from 'sequelize'
import { sql } from '../db/sql.js'
import { User } from '../models/index.js'

/** How far back a device and network count as known, as long as events are kept. */
export const KNOWN_FOR_MS = 90 * 24 * 3600 * 1000

const history = sql(
  `SELECT u."createdAt" AS "registeredAt",
     (SELECT COUNT(*) FROM security_events e WHERE e."userId" = u.id AND e.type = 'sign_in' AND e."createdAt" > $2) AS "signIns",
     (SELECT COUNT(*) FROM security_events e WHERE e."userId" = u.id AND e.type = 'sign_in' AND e."createdAt" > $2 AND e.device = $3 AND e.network = $4) AS "known"
   FROM users u WHERE u.id = $1`,
)

/**
 * A sign-in from a device string and network the account has not signed in from in 90 days is
 * new, except the account's first sign-in after registering (no sign-in on record, and
 * registered less than 90 days ago: an older account's record is only empty for lack of use).
 */
export async function isNewDevice(userId: number, device: string, network: string | null): Promise<boolean> {
  const sequelize = User.sequelize!
  const since = new Date(Date.now() - KNOWN_FOR_MS)
  const [row] = await sequelize.query<{ registeredAt: Date | string; signIns: number | string; known: number | string }>(history(sequelize), {
    bind: [userId, since, device, network ?? ''],
    type: QueryTypes.SELECT,
  })
  if (!row || Number(row.known) > 0) return false
  return Number(row.signIns) > 0 || new Date(row.registeredAt).getTime() <= since.getTime()
}
