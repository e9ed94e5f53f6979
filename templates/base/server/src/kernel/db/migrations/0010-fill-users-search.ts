import type { Migration } from './types.js'

// Frozen with this migration, as 0002's: the app's own folding may change; this may not.
const SEARCH_LENGTH = 600

/**
 * Users written behind the app's back (an SQL import, a seed script) arrive with `search` at its
 * default, '': a trigger fills it in, so the users search finds them. The database folds case as
 * it can (SQLite: ASCII letters only; MySQL: its utf8mb4 case mapping; PostgreSQL: the database's
 * locale); the app folds in JavaScript (models/user-search-text.ts), and
 * `db:refill-search` refolds every row that way, for names beyond ASCII and for rows changed
 * behind the app's back. Rows the app writes carry their search text, and the trigger leaves them.
 */
export const up: Migration = async ({ context: queryInterface }) => {
  const sequelize = queryInterface.sequelize
  const dialect = sequelize.getDialect()
  if (dialect === 'sqlite') {
    await sequelize.query(
      `CREATE TRIGGER users_search_default AFTER INSERT ON users FOR EACH ROW WHEN NEW.search = '' BEGIN ` +
        `UPDATE users SET search = substr(lower(NEW.name) || char(10) || lower(NEW.email), 1, ${SEARCH_LENGTH}) WHERE id = NEW.id; END`,
    )
  } else if (dialect === 'postgres') {
    await sequelize.query(
      `CREATE FUNCTION users_search_default() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN ` +
        `NEW.search := left(lower(normalize(NEW.name, NFC)) || chr(10) || lower(normalize(NEW.email, NFC)), ${SEARCH_LENGTH}); RETURN NEW; END $$`,
    )
    await sequelize.query(`CREATE TRIGGER users_search_default BEFORE INSERT ON users FOR EACH ROW WHEN (NEW.search = '') EXECUTE FUNCTION users_search_default()`)
  } else {
    // `search` is VARBINARY: the folded text goes in as its UTF-8 bytes.
    await sequelize.query(
      `CREATE TRIGGER users_search_default BEFORE INSERT ON users FOR EACH ROW ` +
        `IF NEW.search = '' THEN SET NEW.search = CONVERT(LEFT(LOWER(CONCAT(NEW.name, CHAR(10), NEW.email)), ${SEARCH_LENGTH}) USING utf8mb4); END IF`,
    )
  }
}

export const down: Migration = async ({ context: queryInterface }) => {
  const sequelize = queryInterface.sequelize
  await sequelize.query('DROP TRIGGER IF EXISTS users_search_default' + (sequelize.getDialect() === 'postgres' ? ' ON users' : ''))
  if (sequelize.getDialect() === 'postgres') await sequelize.query('DROP FUNCTION IF EXISTS users_search_default()')
}
