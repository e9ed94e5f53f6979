import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { inject } from 'vitest'
import { databaseServer, dialectOf } from '../../src/kernel/db/database.js'

export interface TestDatabase {
  url: string
  drop(): Promise<void>
}

/** This worker's database (setup/global-setup.ts made one per worker): no other file uses it meanwhile. */
export function runDatabaseUrl(): string {
  const urls = inject('databaseUrls')
  const url = urls[Number(process.env.VITEST_POOL_ID ?? 1) - 1]
  if (!url) throw new Error(`No test database for worker ${process.env.VITEST_POOL_ID} of ${urls.length}`)
  return url
}

/**
 * An empty database in the dialect of `appUrl`: a temporary SQLite file, or a new database
 * `<app database>_<name>` on the same MySQL or PostgreSQL server (keep `name` under 27 characters).
 */
export async function emptyDatabase(appUrl: string, name: string): Promise<TestDatabase> {
  if (dialectOf(appUrl) === 'sqlite') {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'app-db-'))
    return { url: `sqlite:${path.join(dir, `${name}.sqlite`)}`, drop: async () => fs.rmSync(dir, { recursive: true, force: true }) }
  }
  const server = databaseServer(appUrl)
  const fullName = `${server.name.replace(/\W/g, '_').slice(0, 36)}_${name}`
  await server.create(fullName)
  return {
    url: server.urlOf(fullName),
    async drop() {
      await server.drop(fullName)
      await server.close()
    },
  }
}
