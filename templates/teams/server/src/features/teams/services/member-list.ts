import { QueryTypes } from 'sequelize'
import { z } from 'zod'
import { foldForSearch, forDialect, msg, User } from '../../../kernel/index.js'
import type { TeamRole } from '../models/team-member.js'

export type MemberSortKey = 'name' | 'email' | 'role' | 'joinedAt'
export const MEMBER_SORT_KEYS: readonly MemberSortKey[] = ['name', 'email', 'role', 'joinedAt']

const SORT_MESSAGE = msg('validation.sort', { keys: MEMBER_SORT_KEYS.join(', ') })

/** `name,-joinedAt` → fields in order, as the users list reads its sort; an unknown or repeated key is a 422. */
export const memberSortQuery = z
  .string({ error: SORT_MESSAGE })
  .default('')
  .transform((value, ctx): { key: MemberSortKey; descending: boolean }[] => {
    const fields = value.split(',').map((part) => part.trim()).filter(Boolean).map((part) => ({
      key: part.replace(/^-/, '') as MemberSortKey,
      descending: part.startsWith('-'),
    }))
    const keys = fields.map((field) => field.key)
    if (keys.some((key) => !MEMBER_SORT_KEYS.includes(key)) || new Set(keys).size !== keys.length) {
      ctx.addIssue({ code: 'custom', message: SORT_MESSAGE })
      return z.NEVER
    }
    return fields
  })

export interface MemberJson {
  id: number
  name: string
  email: string
  role: TeamRole
  joinedAt: string
}

// Owners first when sorted by role, as the page lists them, not in the alphabet's order.
const COLUMNS: Record<MemberSortKey, string> = {
  name: 'u.name',
  email: 'u.email',
  role: `CASE m.role WHEN 'owner' THEN 0 WHEN 'admin' THEN 1 ELSE 2 END`,
  joinedAt: 'm."createdAt"',
}

/**
 * One page of a team's members in two queries, a count and the page. Without a search the count
 * is answered from the (teamId, userId) index alone; the default order (join order) walks the
 * (teamId, createdAt, userId) index. A search is the users list's: a substring of the folded
 * `search` column (services/user-search.ts).
 */
export async function findMemberPage(
  teamId: number,
  query: { search: string; sort: { key: MemberSortKey; descending: boolean }[] },
  page: number,
  size: number,
): Promise<{ rows: MemberJson[]; total: number }> {
  const sequelize = User.sequelize!
  const dialect = sequelize.getDialect()
  const term = foldForSearch(query.search.trim())
  if (term.includes('\n')) return { rows: [], total: 0 }
  const bind: Record<string, unknown> = { team: teamId }
  let search = ''
  if (term) {
    search = dialect === 'postgres' ? ' AND u.search LIKE $term' : ' AND INSTR(u.search, $term) > 0'
    bind.term = dialect === 'postgres' ? `%${term.replace(/[\\%_]/g, '\\$&')}%` : term
  }
  const fields = query.sort.length > 0 ? query.sort : [{ key: 'joinedAt' as const, descending: false }]
  // The user's id breaks ties, read from the membership so that an order of its columns alone is index-backed.
  const order = [...fields.map((field) => `${COLUMNS[field.key]}${field.descending ? ' DESC' : ''}`), `m."userId"${fields[0]!.descending ? ' DESC' : ''}`].join(', ')
  const offset = (page - 1) * size
  const count = term
    ? `SELECT COUNT(*) AS total FROM team_members m JOIN users u ON u.id = m."userId" WHERE m."teamId" = $team${search}`
    : `SELECT COUNT(*) AS total FROM team_members m WHERE m."teamId" = $team`
  // Without a search and sorted by the membership's own columns, the page is picked from
  // team_members alone before its users are read (a late join): a deep page skips index entries,
  // not joined rows.
  const membersOnly = !term && fields.every((field) => field.key === 'joinedAt' || field.key === 'role')
  const from = membersOnly
    ? `(SELECT m."userId", m.role, m."createdAt" FROM team_members m WHERE m."teamId" = $team ORDER BY ${order} LIMIT ${size} OFFSET ${offset}) m JOIN users u ON u.id = m."userId"`
    : `team_members m JOIN users u ON u.id = m."userId" WHERE m."teamId" = $team${search}`
  const rows = `SELECT u.id, u.name, u.email, m.role, m."createdAt" AS "joinedAt" FROM ${from} ORDER BY ${order}${membersOnly ? '' : ` LIMIT ${size} OFFSET ${offset}`}`
  const [counted, found] = await Promise.all([
    sequelize.query<{ total: number | string }>(forDialect(count, dialect), { bind, type: QueryTypes.SELECT }),
    sequelize.query<{ id: number; name: string; email: string; role: TeamRole; joinedAt: Date | string }>(forDialect(rows, dialect), { bind, type: QueryTypes.SELECT }),
  ])
  return {
    total: Number(counted[0]?.total ?? 0),
    rows: found.map((row) => ({ id: Number(row.id), name: row.name, email: row.email, role: row.role, joinedAt: new Date(row.joinedAt).toISOString() })),
  }
}
