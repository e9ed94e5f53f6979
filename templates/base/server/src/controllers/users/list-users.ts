import type { RequestHandler } from 'express'
import { QueryTypes } from 'sequelize'
import { z } from 'zod'
import { pageQuery, searchQuery, sizeQuery } from '../../http/schemas.js'
import { validate } from '../../http/validate.js'
import { User } from '../../models/index.js'
import { foldForSearch } from '../../services/user-search.js'
import { USER_COLUMNS, userJsonOf, type UserRow } from '../../services/users.js'

const schema = z.object({ page: pageQuery, size: sizeQuery, search: searchQuery })

/**
 * The paginated object the client's DataTable reads, under `data`, in two plain queries: a count
 * of the matching ids (no join), and the page's ids picked from the id or search index before
 * the page's ten rows are read with their role (a late join), so a deep page skips index entries
 * rather than whole rows. The search is a substring test on the folded `search` column
 * (services/user-search.ts): case-insensitive in every language, on SQLite and MySQL alike.
 */
export function listUsers(): RequestHandler {
  return async (req, res) => {
    const { page, size, search } = validate(schema, req.query)
    const term = foldForSearch(search.trim())
    const sequelize = User.sequelize!
    const offset = (page - 1) * size

    // A line break would straddle name and e-mail in the search column; no real match holds one.
    const where = term ? 'WHERE INSTR(search, $term) > 0' : ''
    const bind = term ? { term } : {}
    const [counted] = term.includes('\n')
      ? [{ total: 0 }]
      : await sequelize.query<{ total: number | string }>(`SELECT COUNT(*) AS total FROM users ${where}`, { bind, type: QueryTypes.SELECT })
    const total = Number(counted?.total ?? 0)
    const rows =
      offset < total
        ? await sequelize.query<UserRow>(
            `SELECT ${USER_COLUMNS} FROM (SELECT id FROM users ${where} ORDER BY id LIMIT $limit OFFSET $offset) page
             JOIN users u ON u.id = page.id LEFT JOIN roles r ON r.id = u.roleId ORDER BY u.id`,
            { bind: { ...bind, limit: size, offset }, type: QueryTypes.SELECT },
          )
        : []

    const from = rows.length > 0 ? offset + 1 : null
    res.json({
      data: {
        data: rows.map(userJsonOf),
        current_page: page,
        last_page: Math.max(1, Math.ceil(total / size)),
        per_page: size,
        total,
        path: '/api/users',
        from,
        to: from === null ? null : from + rows.length - 1,
      },
    })
  }
}
