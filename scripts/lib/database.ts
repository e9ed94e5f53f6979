import { createHash } from 'node:crypto'
import { execa } from 'execa'
import mysql from 'mysql2/promise'
import type { Database } from '../../src/options.js'

export interface FreshDatabase {
  url: string
  drop: () => Promise<void>
}

const SERVER = { host: '127.0.0.1', port: 3306, user: 'root' }

/** A fresh MariaDB database for one variant run; `drop` removes it afterwards. */
export async function freshMysqlDatabase(name: string): Promise<FreshDatabase> {
  const connection = await mysql.createConnection(SERVER)
  try {
    await connection.query(`DROP DATABASE IF EXISTS \`${name}\``)
    await connection.query(`CREATE DATABASE \`${name}\` CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci`)
  } finally {
    await connection.end()
  }
  return {
    url: `mysql://${SERVER.user}@${SERVER.host}:${SERVER.port}/${name}`,
    drop: async () => {
      const cleanup = await mysql.createConnection(SERVER)
      try {
        await cleanup.query(`DROP DATABASE IF EXISTS \`${name}\``)
      } finally {
        await cleanup.end()
      }
    },
  }
}

const POSTGRES = { host: '127.0.0.1', port: 5432, user: 'postgres' }

/** One statement on the PostgreSQL server, through psql (the generator itself has no pg driver). */
async function psql(statement: string): Promise<void> {
  await execa('psql', ['-X', '-q', '-v', 'ON_ERROR_STOP=1', '-h', POSTGRES.host, '-p', String(POSTGRES.port), '-U', POSTGRES.user, '-d', 'postgres', '-c', statement])
}

/** A fresh PostgreSQL database for one variant run; `drop` removes it afterwards, connections and all. */
export async function freshPostgresDatabase(name: string): Promise<FreshDatabase> {
  await psql(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`)
  await psql(`CREATE DATABASE "${name}"`)
  return {
    url: `postgres://${POSTGRES.user}@${POSTGRES.host}:${POSTGRES.port}/${name}`,
    drop: () => psql(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`),
  }
}

/**
 * A database name of at most 40 characters: a long variant's id would pass MySQL's 64 and
 * PostgreSQL's 63, and the app's own tests name their databases after this one plus a suffix.
 */
export function databaseName(name: string): string {
  return name.length <= 40 ? name : `${name.slice(0, 31)}_${createHash('sha256').update(name).digest('hex').slice(0, 8)}`
}

/** A fresh database on the machine's server for `db`; none for SQLite, whose file each run makes. */
export async function freshDatabase(db: Database, name: string): Promise<FreshDatabase | undefined> {
  if (db === 'mysql') return freshMysqlDatabase(databaseName(name))
  if (db === 'postgres') return freshPostgresDatabase(databaseName(name))
  return undefined
}
