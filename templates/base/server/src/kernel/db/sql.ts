import type { Sequelize } from 'sequelize'

/**
 * Raw SQL for every dialect. It is written with the camelCase names in double quotes, as
 * standard SQL, PostgreSQL and SQLite read them: PostgreSQL folds an unquoted `roleId` to
 * `roleid`. MySQL gets the same text with backticks. Both forms are made once, when the
 * statement is defined, so a query costs what a constant string costs. Keep `"` for names:
 * string values go in as bind parameters or replacements, never as literals.
 */
export function sql(text: string): (sequelize: Sequelize) => string {
  const mysql = forDialect(text, 'mysql')
  return (sequelize) => (sequelize.getDialect() === 'mysql' ? mysql : text)
}

/** `text`, written as above, for one dialect: where a statement is put together as it runs. */
export const forDialect = (text: string, dialect: string) => (dialect === 'mysql' ? text.replaceAll('"', '`') : text)
