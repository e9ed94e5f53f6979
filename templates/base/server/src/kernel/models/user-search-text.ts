/**
 * The users list searches one column, `users.search`: name and e-mail folded to lower case by
 * JavaScript (every language, not only ASCII as SQLite's LOWER does) and joined by a line break,
 * which no name or e-mail holds. A case-insensitive "contains" is then a plain substring test
 * that SQLite, MySQL (binary collation) and PostgreSQL (LIKE, on a trigram index) answer alike,
 * on an index instead of the table. The model fills the column (kernel/models/user.ts); the list folds
 * its search term the same way (kernel/services/user-list.ts).
 * Changing this folding needs a migration that refills the column.
 */
export const SEARCH_TEXT_LENGTH = 600

export const foldForSearch = (text: string) => text.normalize('NFC').toLowerCase()

export const searchTextOf = (name: string, email: string) => `${foldForSearch(name)}\n${foldForSearch(email)}`.slice(0, SEARCH_TEXT_LENGTH)
