import type { RequestHandler } from 'express'
import { Op, fn, col, where, type WhereOptions } from 'sequelize'
import { z } from 'zod'
import { pageQuery, searchQuery, sizeQuery } from '../../http/schemas.js'
import { validate } from '../../http/validate.js'
import { Role, User } from '../../models/index.js'
import { serializeUser } from '../../services/users.js'

const schema = z.object({ page: pageQuery, size: sizeQuery, search: searchQuery })

/**
 * The users whose name or e-mail contains `term` (already lower-cased), or null for "no filter".
 * INSTR on LOWER() is case-insensitive on SQLite and MySQL alike and needs no LIKE escaping. But
 * SQLite's LOWER() folds ASCII letters only, so a term with other characters ("Élodie") would
 * never match there: SQLite then compares in JavaScript, over the id, name and e-mail columns.
 */
async function matching(term: string): Promise<WhereOptions<User> | null> {
  if (!term) return null
  const sequelize = User.sequelize!
  if (sequelize.getDialect() === 'sqlite' && /[^\x00-\x7f]/.test(term)) {
    const rows = await User.findAll({ attributes: ['id', 'name', 'email'], raw: true })
    const ids = rows.filter((row) => row.name.toLowerCase().includes(term) || row.email.toLowerCase().includes(term)).map((row) => row.id)
    return { id: { [Op.in]: ids } }
  }
  return {
    [Op.or]: [
      where(fn('INSTR', fn('LOWER', col('User.name')), term), Op.gt, 0),
      where(fn('INSTR', fn('LOWER', col('User.email')), term), Op.gt, 0),
    ],
  }
}

/** The paginated object the client's DataTable reads, under `data`. */
export function listUsers(): RequestHandler {
  return async (req, res) => {
    const { page, size, search } = validate(schema, req.query)
    const filter = await matching(search.trim().toLowerCase())
    const { rows, count } = await User.findAndCountAll({
      where: filter ?? {},
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
