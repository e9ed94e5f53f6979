import { QueryTypes, type Transaction } from 'sequelize'
import { forDialect } from '../db/sql.js'
import { fieldError } from '../http/errors.js'
import { User } from '../models/index.js'
import { roleId } from '../services/users.js'
import { inForceSql } from './suspension.js'

/**
 * Runs work that may take admins away (a demotion, a deletion, a suspension) so that at least one
 * that can sign in stays (a suspended admin counts for none),
 * however many such changes run at once on however many instances: one transaction that first
 * takes the admin role's row lock (on SQLite the transaction holds the database's write lock
 * from its start), does the work, and counts the admins left before it commits. Two admins
 * demoting each other at the same moment: the second waits for the first, then finds itself the
 * last and gets 422. The lock is taken before anything else, so no other row lock of the work
 * can be waited for in the opposite order.
 */
export async function keepingAnAdmin<T>(
  work: (transaction: Transaction) => Promise<T>,
  field: string,
  message = 'users.lastAdmin',
): Promise<T> {
  const sequelize = User.sequelize!
  // Locking reads see the latest commits, where MySQL's plain reads would see the transaction's
  // snapshot, taken before the lock was waited for.
  const locking = sequelize.getDialect() === 'sqlite' ? '' : ' FOR UPDATE'
  const admin = await roleId('admin')
  const admins = async (transaction: Transaction) =>
    (await sequelize.query(forDialect(`SELECT id FROM users WHERE "roleId" = ? AND NOT ${inForceSql(sequelize)}${locking}`, sequelize.getDialect()), { replacements: [admin], type: QueryTypes.SELECT, transaction })).length
  return sequelize.transaction(async (transaction) => {
    await sequelize.query(`SELECT id FROM roles WHERE id = ?${locking}`, { replacements: [admin], type: QueryTypes.SELECT, transaction })
    // An app without any admin yet (before `user:create --role admin`) loses none by this work.
    const before = await admins(transaction)
    const result = await work(transaction)
    if (before > 0 && (await admins(transaction)) === 0) throw fieldError(field, message)
    return result
  })
}
