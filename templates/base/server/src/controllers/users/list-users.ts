import type { RequestHandler } from 'express'
import type { AppContext } from '../../kernel/context.js'
import { pageQuery, sizeQuery } from '../../kernel/http/schemas.js'
import { paginated } from '../../kernel/http/paginated.js'
import { validate } from '../../kernel/http/validate.js'
import { findUserPage } from '../../kernel/services/user-list.js'
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
