import { createHash } from 'node:crypto'
import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'

export const TEMPLATES = fileURLToPath(new URL('../../templates/', import.meta.url))
/** Template path → SHA-256 of every migration as released: test/released-migrations.test.ts holds them to it. */
export const MANIFEST = fileURLToPath(new URL('../../test/released-migrations.json', import.meta.url))

/** A migration of base (`kernel/db/migrations/0001-….ts`) or of a layer (`features/<layer>/migrations/0001-….ts`). */
const MIGRATION = /(^|\/)migrations\/\d{4}-[^/]+\.ts(\.ejs)?$/

export const sha256 = (path: string) => createHash('sha256').update(readFileSync(join(TEMPLATES, path))).digest('hex')

/** Every migration under templates/, by path relative to it, sorted. */
export function migrationFiles(relative = ''): string[] {
  return readdirSync(join(TEMPLATES, relative), { withFileTypes: true })
    .flatMap((entry) => {
      const path = relative ? `${relative}/${entry.name}` : entry.name
      return entry.isDirectory() ? migrationFiles(path) : MIGRATION.test(path) ? [path] : []
    })
    .sort()
}

export function readManifest(): Record<string, string> {
  return existsSync(MANIFEST) ? (JSON.parse(readFileSync(MANIFEST, 'utf8')) as Record<string, string>) : {}
}
