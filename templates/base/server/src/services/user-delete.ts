import { QueryTypes } from 'sequelize'
import type { AppConfig } from '../context.js'
import { User } from '../models/index.js'
import { matchSql, sqlFilter, type UserFilter } from './user-list.js'
import { revokeSessionRows } from './sessions.js'

/** Rows deleted per statement: bounded work and bind lists however many users match. */
const BATCH = 500

/**
 * "Delete all N matching": every user the search and filter match, but the `except` ids, in
 * batches of ids walked in order inside one transaction, so a failure deletes nothing. Their
 * sessions end with them; the authentication cache hears of it once the transaction commits.
 */
export async function deleteMatchingUsers(config: AppConfig, match: { search: string; filter: UserFilter }, except: Set<number>): Promise<number> {
  const sequelize = config.sequelize
  const { where, bind, none } = matchSql(match.search, await sqlFilter(match.filter), sequelize.getDialect())
  if (none) return 0
  const next = `SELECT id FROM users ${where ? `${where} AND` : 'WHERE'} id > $after ORDER BY id LIMIT ${BATCH}`
  const deleted: number[] = []
  await sequelize.transaction(async (transaction) => {
    for (let after = 0; ; ) {
      const rows = await sequelize.query<{ id: number }>(next, { bind: { ...bind, after }, type: QueryTypes.SELECT, transaction })
      if (rows.length === 0) break
      after = Number(rows.at(-1)!.id)
      const ids = rows.map((row) => Number(row.id)).filter((id) => !except.has(id))
      if (ids.length === 0) continue
      await revokeSessionRows(ids, { transaction })
      await User.destroy({ where: { id: ids }, transaction })
      deleted.push(...ids)
    }
  })
  config.authCache.sessionsChanged(deleted)
  for (const id of deleted) config.authCache.userChanged(id)
  return deleted.length
}
