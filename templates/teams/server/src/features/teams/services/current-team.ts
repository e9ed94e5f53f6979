import { QueryTypes, type Transaction } from 'sequelize'
import { sql, User } from '../../../kernel/index.js'

const current = sql(`SELECT (SELECT m."teamId" FROM team_members m WHERE m."teamId" = u."currentTeamId" AND m."userId" = u.id) AS member,
  (SELECT t.id FROM teams t WHERE t."personalUserId" = u.id) AS personal FROM users u WHERE u.id = $1`)

/**
 * The user's current team: `currentTeamId` while they are still a member of it, else their
 * personal team, so a team deleted or left meanwhile never leaves anyone without one.
 */
export async function currentTeamOf(userId: number): Promise<number | null> {
  const sequelize = User.sequelize!
  const [row] = await sequelize.query<{ member: number | null; personal: number | null }>(current(sequelize), { bind: [userId], type: QueryTypes.SELECT })
  const id = row?.member ?? row?.personal
  return id === null || id === undefined ? null : Number(id)
}

const fallBack = sql(`UPDATE users SET "currentTeamId" = (SELECT t.id FROM teams t WHERE t."personalUserId" = users.id) WHERE "currentTeamId" = $1`)

/** Whoever had `teamId` current (all its members, or the one `userId` leaving it) is back on their personal team. */
export async function fallBackToPersonal(teamId: number, transaction: Transaction, userId?: number): Promise<void> {
  const sequelize = User.sequelize!
  const statement = fallBack(sequelize) + (userId === undefined ? '' : ' AND id = $2')
  await sequelize.query(statement, { bind: userId === undefined ? [teamId] : [teamId, userId], type: QueryTypes.UPDATE, transaction })
}
