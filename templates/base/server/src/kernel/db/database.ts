import fs from 'node:fs'
import path from 'node:path'
import { Sequelize, Transaction, type Options } from 'sequelize'
import { projectRoot } from '../paths.js'

export type Dialect = 'sqlite' | 'mysql' | 'postgres'

export function dialectOf(databaseUrl: string): Dialect {
  if (databaseUrl.startsWith('sqlite:')) return 'sqlite'
  return /^postgres(ql)?:/.test(databaseUrl) ? 'postgres' : 'mysql'
}

/** `mariadb:` and `postgresql:` URLs as Sequelize reads them: `mysql:` and `postgres:`. */
function serverUrl(databaseUrl: string): string {
  return databaseUrl.replace(/^mariadb:/, 'mysql:').replace(/^postgresql:/, 'postgres:')
}

/** `sqlite:./data/app.sqlite`, `sqlite:///abs/path.sqlite` or `sqlite::memory:` → file path. */
export function sqliteStorage(databaseUrl: string): string {
  const rest = databaseUrl.replace(/^sqlite:(\/\/)?/, '')
  return rest === ':memory:' ? rest : path.resolve(projectRoot, rest)
}

// One rule to reach it: through the models bound to it (`User.findAll`, `User.sequelize!` for raw SQL and transactions); `ctx.sequelize` only opens, probes and closes it.
/** The one place where the databases differ in how to reach them. Everything else is shared. */
export function createSequelize(databaseUrl: string): Sequelize {
  const common: Options = { logging: false, define: { freezeTableName: true } }
  const dialect = dialectOf(databaseUrl)
  if (dialect === 'sqlite') {
    const storage = sqliteStorage(databaseUrl)
    if (storage !== ':memory:') fs.mkdirSync(path.dirname(storage), { recursive: true })
    // A transaction that reads and then writes (a credential change, the last-admin check) must
    // take the write lock when it begins: one that upgrades later fails at once with SQLITE_BUSY
    // when another connection wrote meanwhile, where an IMMEDIATE one waits its turn.
    const sequelize = new Sequelize({ ...common, dialect: 'sqlite', storage, transactionType: Transaction.TYPES.IMMEDIATE })
    waitWhenBusy(sequelize)
    oneTransactionAtATime(sequelize)
    return sequelize
  }
  // A database that is down must not hold a request: a connection is opened within 1.5 s and a
  // free one awaited for 2 s at most (Sequelize's defaults wait 60 s), then the request is a 503.
  const pool = { max: 10, min: 0, idle: 10_000, acquire: 2000 }
  if (dialect === 'postgres') {
    return new Sequelize(serverUrl(databaseUrl), { ...common, dialect: 'postgres', pool, dialectOptions: { connectionTimeoutMillis: 1500 } })
  }
  return new Sequelize(serverUrl(databaseUrl), {
    ...common,
    dialect: 'mysql',
    // FOUND_ROWS (which Sequelize turns off): an UPDATE counts the rows it matched, as SQLite and
    // PostgreSQL do, not only those whose values changed. The code reads a count of 0 as "no such
    // live row": a confirmation in the second the session was last confirmed (DATETIME keeps
    // seconds), or a passkey without a counter used twice in a second, was refused on MySQL.
    dialectOptions: { charset: 'utf8mb4', connectTimeout: 1500, flags: 'FOUND_ROWS' },
    pool,
  })
}

/**
 * Sequelize opens a connection of its own for each SQLite transaction, and runs no connect hook
 * for it: each new one gets the busy timeout that `connectDatabase` gives the main one, so a
 * transaction waits for the file's lock (up to 5 s) instead of failing the request.
 */
function waitWhenBusy(sequelize: Sequelize): void {
  type Connection = { configure(option: 'busyTimeout', ms: number): void }
  const manager = sequelize.connectionManager as unknown as { getConnection(options?: object): Promise<Connection> }
  const getConnection = manager.getConnection.bind(manager)
  const configured = new WeakSet<Connection>()
  manager.getConnection = async (options) => {
    const connection = await getConnection(options)
    if (!configured.has(connection)) {
      connection.configure('busyTimeout', 5000)
      configured.add(connection)
    }
    return connection
  }
}

/**
 * SQLite transactions of this process take turns here rather than in SQLite. A transaction
 * waiting for the file's write lock waits inside a sqlite3 call, on one of libuv's four pool
 * threads (which bcrypt shares): four registration jobs of one address, each waiting to begin,
 * left no thread for the one holding the lock, and every query stood still until the busy
 * timeout ran out (5 s). Queued here, a transaction waits without a thread; SQLite's own wait
 * still settles turns with other processes (`npm run worker`, the CLI). A transaction begun
 * inside another one's callback would wait for itself: it goes ahead after the busy timeout, to
 * meet SQLite's answer as before.
 */
function oneTransactionAtATime(sequelize: Sequelize): void {
  const transaction = sequelize.transaction.bind(sequelize) as (...args: unknown[]) => Promise<unknown>
  let tail: Promise<void> = Promise.resolve()
  const turn = async (): Promise<() => void> => {
    let release!: () => void
    const finished = new Promise<void>((resolve) => (release = resolve))
    const previous = tail
    tail = previous.then(() => finished)
    let timer: NodeJS.Timeout | undefined
    await Promise.race([previous, new Promise<void>((resolve) => (timer = setTimeout(resolve, 5000)))])
    clearTimeout(timer)
    return release
  }
  sequelize.transaction = (async (...args: unknown[]) => {
    // Only managed transactions (a callback) are queued: an unmanaged one has no end to wait for.
    if (typeof args.at(-1) !== 'function') return transaction(...args)
    const release = await turn()
    try {
      return await transaction(...args)
    } finally {
      release()
    }
  }) as Sequelize['transaction']
}

/** Connects and applies per-connection settings. */
export async function connectDatabase(sequelize: Sequelize): Promise<void> {
  await sequelize.authenticate()
  if (sequelize.getDialect() === 'sqlite') {
    // WAL lets a separate `npm run worker` process write while the server reads; the timeout
    // makes a briefly locked file wait instead of failing the request.
    await sequelize.query('PRAGMA journal_mode = WAL')
    await sequelize.query('PRAGMA busy_timeout = 5000')
  }
}

/**
 * The server behind a MySQL or PostgreSQL URL, reached without opening the URL's database
 * (PostgreSQL through its `postgres` database): for `db:migrate` to create the app's database,
 * and for the tests' throwaway ones.
 */
export function databaseServer(databaseUrl: string) {
  const dialect = dialectOf(databaseUrl)
  if (dialect === 'sqlite') throw new Error('SQLite has no database server.')
  const url = new URL(serverUrl(databaseUrl))
  const name = decodeURIComponent(url.pathname.slice(1))
  const urlOf = (database: string) => {
    const other = new URL(url)
    other.pathname = `/${encodeURIComponent(database)}`
    return other.toString()
  }
  const sequelize = new Sequelize(urlOf(dialect === 'postgres' ? 'postgres' : ''), { dialect, logging: false })
  const quoted = (database: string) => (dialect === 'postgres' ? `"${database.replace(/"/g, '""')}"` : `\`${database.replace(/`/g, '``')}\``)
  return {
    /** The database the URL names. */
    name,
    /** The URL with `database` in place of the one it names. */
    urlOf,
    /** Creates `database`; with `ifMissing`, only when it does not exist yet. */
    async create(database: string, ifMissing = false): Promise<void> {
      if (dialect === 'mysql') {
        await sequelize.query(`CREATE DATABASE ${ifMissing ? 'IF NOT EXISTS ' : ''}${quoted(database)} CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci`)
        return
      }
      // PostgreSQL has no CREATE DATABASE IF NOT EXISTS; the encoding is the server's (UTF8 by default).
      if (ifMissing) {
        const [rows] = await sequelize.query('SELECT 1 FROM pg_database WHERE datname = $1', { bind: [database] })
        if (rows.length > 0) return
      }
      await sequelize.query(`CREATE DATABASE ${quoted(database)}`)
    },
    /** Drops `database`, closing what is still connected to it on PostgreSQL. */
    async drop(database: string): Promise<void> {
      await sequelize.query(`DROP DATABASE IF EXISTS ${quoted(database)}${dialect === 'postgres' ? ' WITH (FORCE)' : ''}`)
    },
    close: () => sequelize.close(),
  }
}

/** For `db:migrate` on MySQL and PostgreSQL: create the database named in the URL when it does not exist. */
export async function ensureDatabaseExists(databaseUrl: string): Promise<void> {
  if (dialectOf(databaseUrl) === 'sqlite') return
  const server = databaseServer(databaseUrl)
  try {
    await server.create(server.name, true)
  } finally {
    await server.close()
  }
}

/** The URL without its password, for messages. */
export function redactDatabaseUrl(databaseUrl: string): string {
  return databaseUrl.replace(/(\/\/[^:/@]+):[^@/]*@/, '$1:***@')
}
