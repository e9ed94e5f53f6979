import { QueryTypes } from 'sequelize'
import { forDialect } from '../db/sql.js'
import { User } from '../models/index.js'
import { foldForSearch } from './user-search.js'
import { USER_COLUMNS, userJsonOf, type UserJson, type UserRow } from './users.js'

/**
 * The admin users list in two plain queries: a count of the matching ids (no join), and the
 * page's ids picked from an index before its rows are read with their role (a late join), so a
 * deep page skips index entries rather than whole rows. A search is a substring test on the
 * folded `search` column (services/user-search.ts), answered from its index: case-insensitive
 * in every language, on SQLite, MySQL and PostgreSQL alike, and nothing is loaded into JavaScript.
 * PostgreSQL has no INSTR: there it is a LIKE '%term%', which its trigram index answers
 * (migration 0006); `bindTerm` writes the term as that pattern.
 */
export const listSql = (term: string, dialect: string) => {
  const where = !term ? '' : dialect === 'postgres' ? 'WHERE search LIKE $term' : 'WHERE INSTR(search, $term) > 0'
  // MySQL walks its clustered primary key for ORDER BY id, whole rows at a time; the id-only
  // index (migration 0006) skips the same entries in a third of the time. SQLite picks it itself.
  const ids = !term && dialect === 'mysql' ? 'users FORCE INDEX (users_id)' : 'users'
  const page = `SELECT ${USER_COLUMNS} FROM (SELECT id FROM ${ids} ${where} ORDER BY id LIMIT $limit OFFSET $offset) page
      JOIN users u ON u.id = page.id LEFT JOIN roles r ON r.id = u."roleId" ORDER BY u.id`
  return {
    count: `SELECT COUNT(*) AS total FROM users ${where}`,
    page: forDialect(page, dialect),
    bindTerm: dialect === 'postgres' ? `%${term.replace(/[\\%_]/g, '\\$&')}%` : term,
  }
}

export async function findUserPage(search: string, page: number, size: number): Promise<{ rows: UserJson[]; total: number }> {
  const term = foldForSearch(search.trim())
  // A line break would straddle name and e-mail in the search column; no real match holds one.
  if (term.includes('\n')) return { rows: [], total: 0 }
  const sequelize = User.sequelize!
  const sql = listSql(term, sequelize.getDialect())
  const bind = term ? { term: sql.bindTerm } : {}
  const [counted] = await sequelize.query<{ total: number | string }>(sql.count, { bind, type: QueryTypes.SELECT })
  const total = Number(counted?.total ?? 0)
  const offset = (page - 1) * size
  if (offset >= total) return { rows: [], total }
  const rows = await sequelize.query<UserRow>(sql.page, { bind: { ...bind, limit: size, offset }, type: QueryTypes.SELECT })
  return { rows: rows.map(userJsonOf), total }
}
