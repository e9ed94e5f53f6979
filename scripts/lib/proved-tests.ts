/**
 * Which test files of an app still need a run, given what passed before: a server file with the
 * same bytes on the same database, a client file whose closure (the app modules it loads) has the
 * same bytes. Within one `test:variants` run, and from `test:variants` to
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
import { clientTestKeys } from './client-closure.js'

/**
 * What passed, as keys: under each database's name, the hashes of the server test files run on
 * it; under `client`, the closure keys of the client test files (scripts/lib/client-closure.ts).
 */
export type ProvedTests = Map<string, Set<string>>

const CLIENT = 'client'

const DIST = fileURLToPath(new URL('../../dist/', import.meta.url))

/** Every file under `dir`, in name order. */
export function filesUnder(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true })
    .sort((a, b) => (a.name < b.name ? -1 : 1))
    .flatMap((entry) => (entry.isDirectory() ? filesUnder(join(dir, entry.name)) : [join(dir, entry.name)]))
}

/** The test files of one suite that must run (paths relative to the app), and the keys to add once they pass. */
export interface DueTests {
  due: string[]
  all: number
  ran: Set<string>
}

/**
 * The server test files of the app in `cwd` that must run on `db`, given `proved`: a file runs
 * unless one of the same bytes ran on this database, but always when it reads the layer registry
 * (`features/index`, `import.meta.glob`: its tests change with the layers even when its bytes do
 * not). Whether the variant has Redis does not count: a test app uses Redis only when a test asks
 * for it (`build({ redis: true })`, at TEST_REDIS_URL in every variant), and the processes the
 * tests start get only the environment the tests give them.
 */
export function dueServerTests(cwd: string, db: string, proved: ProvedTests): DueTests {
  const files = filesUnder(join(cwd, 'server', 'tests')).filter((file) => file.endsWith('.test.ts'))
  const before = proved.get(db) ?? new Set<string>()
  const ran = new Set<string>()
  const due: string[] = []
  for (const file of files) {
    const text = readFileSync(file, 'utf8')
    const hash = createHash('sha256').update(text).digest('hex')
    if (before.has(hash) && !/features\/index|import\.meta\.glob/.test(text)) continue
    due.push(file.slice(cwd.length + 1))
    ran.add(hash)
  }
  return { due, all: files.length, ran }
}

/** The client test files of the app in `cwd` that must run: those whose closure has not passed before (or cannot be told). */
export function dueClientTests(cwd: string, proved: ProvedTests): DueTests {
  const files = filesUnder(join(cwd, 'client', 'tests')).filter((file) => file.endsWith('.test.ts')).map((file) => file.slice(cwd.length + 1))
  const before = proved.get(CLIENT) ?? new Set<string>()
  const ran = new Set<string>()
  const due: string[] = []
  for (const [file, key] of clientTestKeys(cwd, files)) {
    if (key !== undefined && before.has(key)) continue
    due.push(file)
    if (key !== undefined) ran.add(key)
  }
  return { due, all: files.length, ran }
}

/**
 * The vitest arguments that run the due files of both suites (a whole folder when all of its files
 * are due, no arguments when everything is), a project with nothing due left unstarted; undefined
 * when nothing is due.
 */
export function testFilters(server: DueTests, client: DueTests): string[] | undefined {
  if (server.due.length === 0 && client.due.length === 0) return undefined
  // File filters select within every project.
  const files = (tests: DueTests, folder: string) => (tests.due.length === tests.all ? [folder] : tests.due)
  if (client.due.length === 0) return [...files(server, 'server/tests/'), '--project', 'server*']
  if (server.due.length === 0) return [...files(client, 'client/tests/'), '--project', 'client']
  return server.due.length === server.all && client.due.length === client.all ? [] : [...files(server, 'server/tests/'), ...files(client, 'client/tests/')]
}

/** Adds `ran` (from `dueServerTests` on `db`, or `dueClientTests` when `db` is undefined) to `proved`. */
export function addProved(proved: ProvedTests, db: string | undefined, ran: Set<string>): void {
  const entries = proved.get(db ?? CLIENT) ?? new Set<string>()
  proved.set(db ?? CLIENT, entries)
  for (const key of ran) entries.add(key)
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
  const saved = JSON.parse(readFileSync(path, 'utf8')) as Record<string, string[]>
  return new Map(Object.entries(saved).map(([name, keys]) => [name, new Set(keys)]))
}

/** Adds files that just passed to the ledger: the server files of `db`, and client files. */
export function writeLedger(db: string, server: Set<string>, client: Set<string>): void {
  const proved = readLedger()
  addProved(proved, db, server)
  addProved(proved, undefined, client)
  writeFileSync(ledgerPath(), JSON.stringify(Object.fromEntries([...proved].map(([name, keys]) => [name, [...keys]]))))
}
