import { QueryTypes, type Sequelize } from 'sequelize'
import { forDialect } from '../db/sql.js'
import { Role, User, type RoleName } from '../models/index.js'
import type { UserCounts } from './user-counts.js'
import { foldForSearch } from './user-search.js'
import { userColumns, userJsonOf, type UserJson, type UserRow } from './users.js'
import { inForceSql, SUSPENSION_COLUMNS, suspensionJsonOf, type SuspensionColumns, type SuspensionJson } from '../security/suspension.js'

/** A user as the admins' API shows it: with its suspension, if one is in force. */
export type AdminUserJson = UserJson & SuspensionJson

export type SortKey = 'id' | 'name' | 'email' | 'createdAt'
export const SORT_KEYS: readonly SortKey[] = ['id', 'name', 'email', 'createdAt']

export interface SortField {
  key: SortKey
  descending: boolean
}

export interface UserFilter {
  role?: RoleName
  verified?: boolean
  /** Suspended now (kernel/security/suspension.ts), or not. */
  suspended?: boolean
}

/** Which users a list page, a count or a delete-all-matching means. */
export interface UserQuery {
  search: string
  filter: UserFilter
  sort: SortField[]
}

/** A filter as the SQL takes it: the role as its id (null: a role that does not exist, so nothing matches). */
export interface SqlFilter {
  roleId?: number | null
  verified?: boolean
  /** The test of the suspended filter, its moment written in (kernel/security/suspension.ts `inForceSql`). */
  suspended?: string
}

const roleIds = new WeakMap<Sequelize, Map<RoleName, number | null>>()

/**
 * The role's id, read once per connection: a constant in the WHERE lets every planner walk the
 * index that starts with it (migration 0002-create-users), which a subquery for the id did not on SQLite.
 */
export async function sqlFilter(filter: UserFilter): Promise<SqlFilter> {
  const sequelize = User.sequelize!
  const suspended = filter.suspended === undefined ? {} : { suspended: `${filter.suspended ? '' : 'NOT '}${inForceSql(sequelize)}` }
  if (filter.role === undefined) return { verified: filter.verified, ...suspended }
  let ids = roleIds.get(sequelize)
  if (!ids) roleIds.set(sequelize, (ids = new Map()))
  if (!ids.has(filter.role)) ids.set(filter.role, (await Role.findOne({ where: { name: filter.role }, attributes: ['id'] }))?.id ?? null)
  return { roleId: ids.get(filter.role)!, verified: filter.verified, ...suspended }
}

/**
 * The WHERE of a users query and its bind values. A search is a substring test on the folded
 * `search` column (kernel/services/user-search.ts), answered from its index: case-insensitive in every
 * language, on SQLite, MySQL and PostgreSQL alike, and nothing is loaded into JavaScript.
 * PostgreSQL has no INSTR: there it is a LIKE '%term%', which its trigram index answers
 * (migration 0002-create-users). Filters are plain column tests with indexes of their own (same migration;
 * the suspended filter's, migration 0020-add-user-suspension).
 */
export function matchSql(search: string, filter: SqlFilter, dialect: string): { where: string; bind: Record<string, unknown>; none: boolean } {
  const term = foldForSearch(search.trim())
  const tests: string[] = []
  const bind: Record<string, unknown> = {}
  if (term) {
    tests.push(dialect === 'postgres' ? 'search LIKE $term' : 'INSTR(search, $term) > 0')
    bind.term = dialect === 'postgres' ? `%${term.replace(/[\\%_]/g, '\\$&')}%` : term
  }
  if (filter.roleId !== undefined) {
    tests.push(filter.roleId === null ? '1 = 0' : '"roleId" = $roleId')
    if (filter.roleId !== null) bind.roleId = filter.roleId
  }
  if (filter.verified !== undefined) tests.push(filter.verified ? '"emailVerifiedAt" IS NOT NULL' : '"emailVerifiedAt" IS NULL')
  if (filter.suspended !== undefined) tests.push(filter.suspended)
  // A line break would straddle name and e-mail in the search column; no real match holds one.
  return { where: tests.length > 0 ? forDialect(`WHERE ${tests.join(' AND ')}`, dialect) : '', bind, none: term.includes('\n') }
}

const COLUMNS: Record<SortKey, string> = { id: 'id', name: 'name', email: 'email', createdAt: '"createdAt"' }

/** The sort, with the id last as the tie-breaker in the direction of the first key, so each order is total and index-backed (name, id). */
function orderBy(sort: SortField[], table: string): string {
  const fields = sort.length > 0 ? sort : [{ key: 'id' as const, descending: false }]
  const keys = fields.some((field) => field.key === 'id') ? fields : [...fields, { key: 'id' as const, descending: fields[0]!.descending }]
  return keys.map((field) => `${table}${COLUMNS[field.key]}${field.descending ? ' DESC' : ''}`).join(', ')
}

/**
 * The admin users list in two plain queries: a count of the matching ids (no join), and the
 * page's ids picked from an index before its rows are read with their role (a late join), so a
 * deep page skips index entries rather than whole rows.
 */
export const listSql = (query: Omit<UserQuery, 'filter'> & { filter: SqlFilter }, dialect: string, window = { limit: 10, offset: 0 }) => {
  const { where, bind, none } = matchSql(query.search, query.filter, dialect)
  // LIMIT and OFFSET are written in, not bound: MariaDB costs a bound OFFSET as unknown and at
  // times sorted a deep page from the whole table (200 ms) instead of walking the sort's index.
  const { limit, offset } = window
  if (!Number.isSafeInteger(limit) || !Number.isSafeInteger(offset) || limit < 0 || offset < 0) throw new RangeError('a page window is two whole numbers')
  const byId = orderBy(query.sort, '') === 'id'
  // MySQL walks its clustered primary key for ORDER BY id, whole rows at a time; the id-only
  // index (migration 0002-create-users) skips the same entries in a third of the time. SQLite picks it itself.
  const ids = !where && byId && dialect === 'mysql' ? 'users FORCE INDEX (users_id)' : 'users'
  const page = `SELECT ${userColumns()}, ${SUSPENSION_COLUMNS} FROM (SELECT id FROM ${ids} ${where} ORDER BY ${orderBy(query.sort, '')} LIMIT ${limit} OFFSET ${offset}) page
      JOIN users u ON u.id = page.id LEFT JOIN roles r ON r.id = u."roleId" ORDER BY ${orderBy(query.sort, 'u.')}`
  return { count: `SELECT COUNT(*) AS total FROM users ${where}`, page: forDialect(page, dialect), bind, none }
}

/** `counts`: the totals kept between pages (kernel/services/user-counts.ts). */
export async function findUserPage(query: UserQuery, page: number, size: number, counts: UserCounts): Promise<{ rows: AdminUserJson[]; total: number }> {
  const sequelize = User.sequelize!
  const sql = listSql({ ...query, filter: await sqlFilter(query.filter) }, sequelize.getDialect(), { limit: size, offset: (page - 1) * size })
  if (sql.none) return { rows: [], total: 0 }
  const count = async () => {
    const [counted] = await sequelize.query<{ total: number | string }>(sql.count, { bind: sql.bind, type: QueryTypes.SELECT })
    return Number(counted?.total ?? 0)
  }
  // Both at once: on MySQL and PostgreSQL they run on two pooled connections, so a page whose
  // total is not known yet costs the slower of the two rather than their sum. A page past the
  // end comes back empty.
  const [total, rows] = await Promise.all([
    counts.total(`${sql.count} ${JSON.stringify(sql.bind)}`, count),
    sequelize.query<UserRow & SuspensionColumns>(sql.page, { bind: sql.bind, type: QueryTypes.SELECT }),
  ])
  const now = Date.now()
  return { rows: rows.map((row) => ({ ...userJsonOf(row), ...suspensionJsonOf(row, now) })), total }
}
