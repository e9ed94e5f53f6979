import fs from 'node:fs'
import path from 'node:path'
import { Sequelize, type Options } from 'sequelize'
import { projectRoot } from '../paths.js'

export type Dialect = 'sqlite' | 'mysql'

export function dialectOf(databaseUrl: string): Dialect {
  return databaseUrl.startsWith('sqlite:') ? 'sqlite' : 'mysql'
}

/** `sqlite:./data/app.sqlite`, `sqlite:///abs/path.sqlite` or `sqlite::memory:` → file path. */
export function sqliteStorage(databaseUrl: string): string {
  const rest = databaseUrl.replace(/^sqlite:(\/\/)?/, '')
  return rest === ':memory:' ? rest : path.resolve(projectRoot, rest)
}

/** The one place where SQLite and MySQL differ: how to reach them. Everything else is shared. */
export function createSequelize(databaseUrl: string): Sequelize {
  const common: Options = { logging: false, define: { freezeTableName: true } }
  if (dialectOf(databaseUrl) === 'sqlite') {
    const storage = sqliteStorage(databaseUrl)
    if (storage !== ':memory:') fs.mkdirSync(path.dirname(storage), { recursive: true })
    return new Sequelize({ ...common, dialect: 'sqlite', storage })
  }
  return new Sequelize(databaseUrl.replace(/^mariadb:/, 'mysql:'), {
    ...common,
    dialect: 'mysql',
    dialectOptions: { charset: 'utf8mb4' },
    pool: { max: 10, min: 0, idle: 10_000 },
  })
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

/** For `db:migrate` on MySQL: create the database named in the URL when it does not exist. */
export async function ensureDatabaseExists(databaseUrl: string): Promise<void> {
  if (dialectOf(databaseUrl) !== 'mysql') return
  const url = new URL(databaseUrl.replace(/^mariadb:/, 'mysql:'))
  const name = decodeURIComponent(url.pathname.slice(1))
  url.pathname = '/'
  const server = new Sequelize(url.toString(), { dialect: 'mysql', logging: false })
  try {
    await server.query(
      `CREATE DATABASE IF NOT EXISTS \`${name.replace(/`/g, '``')}\` CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci`,
    )
  } finally {
    await server.close()
  }
}

/** The URL without its password, for messages. */
export function redactDatabaseUrl(databaseUrl: string): string {
  return databaseUrl.replace(/(\/\/[^:/@]+):[^@/]*@/, '$1:***@')
}
