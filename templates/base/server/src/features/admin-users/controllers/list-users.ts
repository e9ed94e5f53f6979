import type { RequestHandler } from 'express'
import { findUserPage, pageQuery, paginated, sizeQuery, validate, type AppContext } from '../../../kernel/index.js'
import { gatherFilter, listQuery } from './user-query.js'

export const listUsersQuery = listQuery.extend({ page: pageQuery, size: sizeQuery })

/** The paginated object the client's DataTable reads, under `data`. */
export function listUsers(ctx: AppContext): RequestHandler {
  return async (req, res) => {
    const { page, size, ...query } = validate(listUsersQuery, gatherFilter(req.query as Record<string, unknown>))
    const { rows, total } = await findUserPage(query, page, size, ctx.authCache.userCounts)
    res.json({ data: paginated(rows, total, page, size, '/api/users') })
  }
}
