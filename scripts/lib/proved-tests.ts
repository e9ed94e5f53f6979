/**
 * Which server test files of an app still need a run, given what ran before with the same bytes
 * on the same database: within one `test:variants` run, and from `test:variants` to
 * `test:update`, which comes after it in `npm test` and needs its merged app's own suite to pass
 * without paying again for files the variants proved. The ledger between the two lives in the
 * temporary folder under the hash of the built generator (dist/), so a change to any template
 * or to the renderer starts a new one instead of trusting an old run.
 */
import { createHash } from 'node:crypto'
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'

/** By database: the hashes of the server test files run on it, each with whether a run had Redis. */
export type ProvedTests = Map<string, Map<string, boolean>>

const DIST = fileURLToPath(new URL('../../dist/', import.meta.url))

/** Every file under `dir`, in name order. */
export function filesUnder(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true })
    .sort((a, b) => (a.name < b.name ? -1 : 1))
    .flatMap((entry) => (entry.isDirectory() ? filesUnder(join(dir, entry.name)) : [join(dir, entry.name)]))
}

/**
 * The server test files of the app in `cwd` that must run (paths relative to it), given `proved`,
 * and the hashes to add to `proved` once they pass. A file runs unless one of the same bytes ran
 * on this database, but always when it reads the layer registry (`features/index`,
 * `import.meta.glob`: its tests change with the layers even when its bytes do not), and when it
 * uses Redis, this app has Redis and no earlier run of it had (a file that never names Redis
 * builds the same apps either way).
 */
export function dueServerTests(cwd: string, db: string, redis: boolean, proved: ProvedTests): { due: string[]; all: number; ran: Map<string, boolean> } {
  const files = filesUnder(join(cwd, 'server', 'tests')).filter((file) => file.endsWith('.test.ts'))
  const before = proved.get(db) ?? new Map<string, boolean>()
  const ran = new Map<string, boolean>()
  const due: string[] = []
  for (const file of files) {
    const text = readFileSync(file, 'utf8')
    const hash = createHash('sha256').update(text).digest('hex')
    const must = !before.has(hash) || /features\/index|import\.meta\.glob/.test(text) || (redis && !before.get(hash) && /redis/i.test(text))
    if (!must) continue
    due.push(file.slice(cwd.length + 1))
    ran.set(hash, redis || (before.get(hash) ?? false))
  }
  return { due, all: files.length, ran }
}

/** Adds `ran` (from `dueServerTests`) to `proved` on `db`. */
export function addProved(proved: ProvedTests, db: string, ran: Map<string, boolean>): void {
  const entries = proved.get(db) ?? new Map<string, boolean>()
  proved.set(db, entries)
  for (const [hash, redis] of ran) entries.set(hash, redis || (entries.get(hash) ?? false))
}

function ledgerPath(): string {
  const hash = createHash('sha256')
  for (const file of filesUnder(DIST)) hash.update(file.slice(DIST.length)).update(readFileSync(file))
  return join(tmpdir(), `cca-proved-tests-${hash.digest('hex').slice(0, 16)}.json`)
}

/** What `test:variants` proved with this build of the generator (nothing when it changed since). */
export function readLedger(): ProvedTests {
  const path = ledgerPath()
  if (!existsSync(path)) return new Map()
  const saved = JSON.parse(readFileSync(path, 'utf8')) as Record<string, Record<string, boolean>>
  return new Map(Object.entries(saved).map(([db, hashes]) => [db, new Map(Object.entries(hashes))]))
}

/** Adds files that just passed on `db` to the ledger. */
export function writeLedger(db: string, ran: Map<string, boolean>): void {
  const proved = readLedger()
  addProved(proved, db, ran)
  writeFileSync(ledgerPath(), JSON.stringify(Object.fromEntries([...proved].map(([name, hashes]) => [name, Object.fromEntries(hashes)]))))
}
