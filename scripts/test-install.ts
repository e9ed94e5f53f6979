/**
 * The default app as a new user gets it, with the package managers the CLI offers and on the
 * Node lines it supports: the CLI itself generates and installs (its closing message must say Done),
 * then the app migrates, builds, starts and answers `/api/health`, a registration and a login.
 * Prints install time and result per manager and Node version.
 *
 * By default the rows every CI run covers (CI_ROWS in scripts/lib/toolchains.ts: pnpm 10 on the
 * machine's Node, npm on the newest Node line); `--all` runs the whole matrix, as
 * `npm run test:release` does before each release; `--only` picks rows of the whole matrix by label.
 *
 *   npm run test:install [-- --all] [-- --only "pnpm 10,yarn 4"] [-- --keep]
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { delimiter, join } from 'node:path'
import { parseArgs } from 'node:util'
import { execa } from 'execa'
import semver from 'semver'
import { runScript } from '../src/generate/context.js'
import { appEnv } from './lib/app-env.js'
import { appEngines } from './lib/install-checks.js'
import { seedPrebuildCache } from './lib/prebuild-cache.js'
import { whileStarted } from './lib/start-script.js'
import { freePort } from './lib/ports.js'
import { sharedNodeModules } from './lib/shared-install.js'
import { ALL_ROWS, CI_ROWS, MANAGERS, type Manager, toolchain } from './lib/toolchains.js'

const { values } = parseArgs({ options: { only: { type: 'string' }, all: { type: 'boolean' }, keep: { type: 'boolean' } } })

const only = values.only?.split(',')
for (const label of only ?? []) if (!MANAGERS.some((manager) => manager.label === label)) throw new Error(`unknown manager ${label}: one of ${MANAGERS.map((manager) => manager.label).join(', ')}`)
const MATRIX = only ? ALL_ROWS.filter(({ manager }) => only.includes(manager.label)) : values.all ? ALL_ROWS : CI_ROWS

const ENGINES = appEngines()
const CLI = new URL('../bin/create-cookie-auth-app.js', import.meta.url).pathname

interface Row {
  label: string
  node: string
  seconds: Record<'install' | 'migrate' | 'build' | 'probe', number>
  failure?: string
}

/** Runs `command` as a shell line would (`yarn db:migrate`, `pnpm run build`). */
function run(line: string, cwd: string, env: NodeJS.ProcessEnv) {
  const [command, ...args] = line.split(' ')
  return execa(command!, args, { cwd, env, extendEnv: false, all: true, reject: false })
}

async function timed<T>(into: Record<string, number>, key: string, work: () => Promise<T>): Promise<T> {
  const started = Date.now()
  try {
    return await work()
  } finally {
    into[key] = (Date.now() - started) / 1000
  }
}

async function postJson(base: string, path: string, body: unknown): Promise<Response> {
  return fetch(`${base}${path}`, { method: 'POST', headers: { 'Content-Type': 'application/json', Origin: base }, body: JSON.stringify(body) })
}

/** `<pm> start` on a free port; health, a registration (201, cookies) and a login (200). */
async function startAndProbe(manager: Manager, cwd: string, env: NodeJS.ProcessEnv): Promise<string | undefined> {
  const { result, output } = await whileStarted(runScript(manager.command, 'start'), await freePort(), { cwd, env, extendEnv: false, all: true }, async (health, base) => {
    if (!health) return `the server did not answer /api/health within 30 s`
    if (health.status !== 200) return `GET /api/health → ${health.status}`
    const account = { name: 'Install Check', email: 'install-check@example.com', password: 'correct horse battery' }
    const registered = await postJson(base, '/api/auth/register', account)
    if (registered.status !== 201 || registered.headers.getSetCookie().length === 0) return `POST /api/auth/register → ${registered.status} ${await registered.text()}`
    const login = await postJson(base, '/api/auth/login', { email: account.email, password: account.password })
    if (login.status !== 200) return `POST /api/auth/login → ${login.status} ${await login.text()}`
    const { user } = (await login.json()) as { user?: { email?: string } }
    if (user?.email !== account.email) return `POST /api/auth/login answered no user`
    return undefined
  })
  if (process.env.CCA_VERBOSE) console.log(output)
  return result
}

/** One row of the matrix; what it prints goes to `log`, so that rows running side by side print whole. */
async function check(manager: Manager, node: string | undefined, root: string, log: (text: string) => void): Promise<Row> {
  const { bin, nodedir } = await toolchain(manager, node)
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    PATH: `${bin}${delimiter}${process.env.PATH}`,
    // Should a native dependency build from source, against the headers of the Node it runs on.
    npm_config_nodedir: nodedir,
    // As on a CI runner, where yarn 4 turns immutable installs on.
    CI: 'true',
  }
  // As from a shell, not from inside `npm run`: the CLI would take npm for the user's manager.
  for (const key of Object.keys(env)) if (key.startsWith('npm_') && key !== 'npm_config_nodedir') delete env[key]
  const nodeVersion = (await execa('node', ['--version'], { env, extendEnv: false })).stdout.trim()
  const row: Row = { label: manager.label, node: nodeVersion, seconds: { install: 0, migrate: 0, build: 0, probe: 0 } }
  const fail = (step: string, output: string | undefined) => {
    row.failure = step
    log(`\n${manager.label} on Node ${nodeVersion}: ${step} failed\n${output?.split('\n').slice(-40).join('\n') ?? ''}`)
    return row
  }
  if (!semver.satisfies(nodeVersion, ENGINES)) return fail(`engines (${ENGINES} leaves out ${nodeVersion})`, undefined)
  const dir = join(root, `app-${manager.label.replace(' ', '')}-${nodeVersion}`)
  log(`\n━━ ${manager.label} on Node ${nodeVersion}`)

  const created = await timed(row.seconds, 'install', () => run(`node ${CLI} ${dir} --yes --no-git --pm ${manager.command}`, root, env))
  if (created.exitCode !== 0 || !created.all.includes('\nDone.')) return fail('create and install', created.all)
  // The install is the registry's; what runs the app after it stays on loopback.
  const local = appEnv(env)
  for (const step of ['migrate', 'build'] as const) {
    const result = await timed(row.seconds, step, () => run(runScript(manager.command, step === 'migrate' ? 'db:migrate' : 'build'), dir, local))
    if (result.exitCode !== 0) return fail(step, result.all)
  }
  const probe = await timed(row.seconds, 'probe', () => startAndProbe(manager, dir, local))
  if (probe) return fail('start and probe', probe)
  log(`ok: installed in ${row.seconds.install.toFixed(1)} s`)
  if (!values.keep) rmSync(dir, { recursive: true, force: true })
  return row
}

const started = Date.now()
await seedPrebuildCache(process.env.CCA_SHARED_MODULES ?? (await sharedNodeModules()))
const root = mkdtempSync(join(tmpdir(), 'cca-install-'))
/**
 * Two rows at a time: a row waits on the registry and on one compiler at a time, so two of them
 * keep the machine's two cores busy (CI's two rows took 57 s one after the other).
 */
const ROWS_AT_ONCE = 2
const rows: Row[] = new Array(MATRIX.length)
try {
  let next = 0
  await Promise.all(Array.from({ length: Math.min(ROWS_AT_ONCE, MATRIX.length) }, async () => {
    for (let index = next++; index < MATRIX.length; index = next++) {
      const lines: string[] = []
      rows[index] = await check(MATRIX[index]!.manager, MATRIX[index]!.node, root, (text) => lines.push(text))
      console.log(lines.join('\n'))
    }
  }))
} finally {
  if (!values.keep) rmSync(root, { recursive: true, force: true })
}

console.log(`\n${'manager'.padEnd(9)} ${'node'.padEnd(9)} ${'install'.padStart(8)} ${'migrate'.padStart(8)} ${'build'.padStart(8)} ${'probe'.padStart(8)}  result`)
for (const { label, node, seconds, failure } of rows) {
  const cells = [seconds.install, seconds.migrate, seconds.build, seconds.probe].map((value) => `${value.toFixed(1)} s`.padStart(8))
  console.log(`${label.padEnd(9)} ${node.padEnd(9)} ${cells.join(' ')}  ${failure ? `FAIL (${failure})` : 'pass'}`)
}
const failed = rows.filter((row) => row.failure).length
console.log(`\ninstalls: ${rows.length - failed} passed, ${failed} failed, in ${((Date.now() - started) / 1000).toFixed(0)} s`)
process.exitCode = failed > 0 || rows.length === 0 ? 1 : 0
