/**
 * Server test files that an earlier script of this `npm test` ran and passed, by database, each
 * hash with whether a run of it had Redis: test:update runs a whole app's suite, and
 * test:variants need not run the same bytes on the same database again. Kept in the temporary
 * folder under the hash of the built generator (dist/), so that any change to a template or to
 * the renderer starts a new ledger instead of trusting an old run.
 */
import { createHash } from 'node:crypto'
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'

export type ProvedTests = Map<string, Map<string, boolean>>

const DIST = fileURLToPath(new URL('../../dist/', import.meta.url))

export const testFileHash = (text: string) => createHash('sha256').update(text).digest('hex')

/** Every file under `dir`, in name order. */
export function filesUnder(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true })
    .sort((a, b) => (a.name < b.name ? -1 : 1))
    .flatMap((entry) => (entry.isDirectory() ? filesUnder(join(dir, entry.name)) : [join(dir, entry.name)]))
}

function ledgerPath(): string {
  const hash = createHash('sha256')
  for (const file of filesUnder(DIST)) hash.update(file.slice(DIST.length)).update(readFileSync(file))
  return join(tmpdir(), `cca-proved-tests-${hash.digest('hex').slice(0, 16)}.json`)
}

/** What earlier scripts proved with this build of the generator (nothing when it changed since). */
export function provedTests(): ProvedTests {
  const path = ledgerPath()
  if (!existsSync(path)) return new Map()
  const saved = JSON.parse(readFileSync(path, 'utf8')) as Record<string, Record<string, boolean>>
  return new Map(Object.entries(saved).map(([db, hashes]) => [db, new Map(Object.entries(hashes))]))
}

/** Adds the server test files of the app in `dir`, all of which just passed on `db`. */
export function recordProvedTests(dir: string, db: string, redis: boolean): void {
  const proved = provedTests()
  const ran = proved.get(db) ?? new Map<string, boolean>()
  proved.set(db, ran)
  for (const file of filesUnder(join(dir, 'server', 'tests')).filter((name) => name.endsWith('.test.ts'))) {
    const hash = testFileHash(readFileSync(file, 'utf8'))
    ran.set(hash, redis || (ran.get(hash) ?? false))
  }
  const saved = Object.fromEntries([...proved].map(([name, hashes]) => [name, Object.fromEntries(hashes)]))
  writeFileSync(ledgerPath(), JSON.stringify(saved))
}
