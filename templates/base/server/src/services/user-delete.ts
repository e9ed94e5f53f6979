import type { Request } from 'express'
import { QueryTypes, type Transaction } from 'sequelize'
import type { AppContext } from '../context.js'
import type { UserLifecycle } from '../kernel/feature.js'
import { fieldError } from '../http/errors.js'
import { User } from '../models/index.js'
import { keepingAnAdmin } from '../security/admins.js'
import { recordCredentialEvent } from '../security/credential-events.js'
import { events } from '../security/events.js'
import { matchSql, sqlFilter, type UserFilter } from './user-list.js'

/** Rows deleted per statement: bounded work and bind lists however many users match. */
const BATCH = 500

/**
 * The layers' word on a deletion (kernel/feature.ts `UserDeletion`), in the deleting transaction
 * before the rows go: a refusal is a 422 on the request's `field`; else each tidies what it must.
 */
export async function layersLetUsersGo(features: UserLifecycle, ids: number[], transaction: Transaction, field: string): Promise<void> {
  for (const feature of features) {
    const refusal = await feature.userDeletion?.refusal?.(ids, transaction)
    if (refusal) throw fieldError(field, refusal)
  }
  for (const feature of features) await feature.userDeletion?.cleanup?.(ids, transaction)
}

/** An admin deletes users: each gets `account_deleted`, and their sessions end with them. */
async function deleteBatch(ctx: AppContext, req: Request, ids: number[], transaction: Transaction, field: string): Promise<void> {
  await layersLetUsersGo(ctx.features, ids, transaction, field)
  return recordCredentialEvent(ctx, events.accountDeleted, ids, {
    req,
    revoke: 'all',
    userChanged: true,
    meta: { by: req.auth!.id },
    transaction,
    change: () => User.destroy({ where: { id: ids }, transaction }),
  })
}

/** `{ids}`: the users with these ids (the caller is never among them); an admin always stays. */
export function deleteUsersById(ctx: AppContext, req: Request, ids: number[]): Promise<number> {
  return keepingAnAdmin(
    async (transaction) => {
      const existing = (await User.findAll({ attributes: ['id'], where: { id: ids }, transaction })).map((user) => user.id)
      if (existing.length > 0) await deleteBatch(ctx, req, existing, transaction, 'ids')
      return existing.length
    },
    'ids',
  )
}

/**
 * "Delete all N matching": every user the search and filter match, but the `except` ids, in
 * batches of ids walked in order inside one transaction, so a failure deletes nothing.
 */
export async function deleteMatchingUsers(ctx: AppContext, req: Request, match: { search: string; filter: UserFilter }, except: Set<number>): Promise<number> {
  const sequelize = User.sequelize!
  const { where, bind, none } = matchSql(match.search, await sqlFilter(match.filter), sequelize.getDialect())
  if (none) return 0
  const next = `SELECT id FROM users ${where ? `${where} AND` : 'WHERE'} id > $after ORDER BY id LIMIT ${BATCH}`
  return keepingAnAdmin(
    async (transaction) => {
      let deleted = 0
      for (let after = 0; ; ) {
        const rows = await sequelize.query<{ id: number }>(next, { bind: { ...bind, after }, type: QueryTypes.SELECT, transaction })
        if (rows.length === 0) return deleted
        after = Number(rows.at(-1)!.id)
        const ids = rows.map((row) => Number(row.id)).filter((id) => !except.has(id))
        if (ids.length === 0) continue
        await deleteBatch(ctx, req, ids, transaction, 'all')
        deleted += ids.length
      }
    },
    'all',
  )
}
