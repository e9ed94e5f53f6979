import type { RequestHandler } from 'express'
import { Op, fn, col, where } from 'sequelize'
import { z } from 'zod'
import { pageQuery, searchQuery, sizeQuery } from '../../http/schemas.js'
import { validate } from '../../http/validate.js'
import { Role, User } from '../../models/index.js'
import { serializeUser } from '../../services/users.js'

const schema = z.object({ page: pageQuery, size: sizeQuery, search: searchQuery })

/** The paginated object the client's DataTable reads, under `data`. */
export function listUsers(): RequestHandler {
  return async (req, res) => {
    const { page, size, search } = validate(schema, req.query)
    const term = search.trim().toLowerCase()
    // INSTR on LOWER() is case-insensitive on SQLite and MySQL alike, and needs no LIKE escaping.
    const filter = term
      ? {
          [Op.or]: [
            where(fn('INSTR', fn('LOWER', col('User.name')), term), Op.gt, 0),
            where(fn('INSTR', fn('LOWER', col('User.email')), term), Op.gt, 0),
          ],
        }
      : {}
    const { rows, count } = await User.findAndCountAll({
      where: filter,
      include: [{ model: Role, as: 'Role' }],
      order: [['id', 'ASC']],
      limit: size,
      offset: (page - 1) * size,
      distinct: true,
    })
    const from = rows.length > 0 ? (page - 1) * size + 1 : null
    res.json({
      data: {
        data: rows.map(serializeUser),
        current_page: page,
        last_page: Math.max(1, Math.ceil(count / size)),
        per_page: size,
        total: count,
        path: '/api/users',
        from,
        to: from === null ? null : from + rows.length - 1,
      },
    })
  }
}
