import { QueryTypes, type Transaction } from 'sequelize'
import { forDialect, notFound, User } from '../../../kernel/index.js'
import { TeamMember, type TeamRole } from '../models/team-member.js'

/**
 * Runs a change to a team's members in one transaction that first takes the team's row lock (on
 * SQLite the transaction holds the database's write lock from its start), so the rules that
 * count owners hold however many changes run at once on however many instances: two owners
 * leaving at the same moment take turns, and the second finds itself the last. Every read inside
 * locks too: on MySQL a locking read sees the latest commits, a plain one the snapshot.
 *
 * `users` are the users whose rows the work locks later (the security core locks an event's
 * users): they are locked first, in id order, so every transaction takes users before teams, as
 * an account's deletion does (services/account-deletion.ts), and none waits in the opposite order.
 */
export function withTeamLocked<T>(teamId: number, work: (transaction: Transaction) => Promise<T>, users: number[] = []): Promise<T> {
  return User.sequelize!.transaction(async (transaction) => {
    await lockTeam(teamId, transaction, users)
    return work(transaction)
  })
}

/**
 * `withTeamLocked`'s locks, taken in a transaction the caller began (one that must commit other
 * writes with the team's change): the users, then the team (404 once it is gone).
 */
export async function lockTeam(teamId: number, transaction: Transaction, users: number[] = []): Promise<void> {
  const sequelize = User.sequelize!
  const locking = sequelize.getDialect() === 'sqlite' ? '' : ' FOR UPDATE'
  if (users.length > 0) await User.findAll({ attributes: ['id'], where: { id: users }, order: [['id', 'ASC']], lock: transaction.LOCK.UPDATE, transaction })
  const [team] = await sequelize.query(`SELECT id FROM teams WHERE id = ?${locking}`, { replacements: [teamId], type: QueryTypes.SELECT, transaction })
  if (!team) throw notFound()
}

/** A user's membership as it stands under the lock (the middleware's read may be stale by now). */
export const lockedMember = (teamId: number, userId: number, transaction: Transaction) =>
  TeamMember.findOne({ where: { teamId, userId }, lock: transaction.LOCK.UPDATE, transaction })

/** How many owners the team has, under the lock. */
export async function ownerCount(teamId: number, transaction: Transaction): Promise<number> {
  const sequelize = User.sequelize!
  const locking = sequelize.getDialect() === 'sqlite' ? '' : ' FOR UPDATE'
  const owner: TeamRole = 'owner'
  const rows = await sequelize.query(forDialect(`SELECT id FROM team_members WHERE "teamId" = ? AND role = ?${locking}`, sequelize.getDialect()), {
    replacements: [teamId, owner],
    type: QueryTypes.SELECT,
    transaction,
  })
  return rows.length
}
