/**
 * `add` and `update` on a real app with a real database (issue 40), as an owner would run them:
 * the built CLI generates the default SQLite app (no two-factor, no passkeys) and git commits it,
 * on the shared install (no install per app: sqlite3 compiles for 90 s); a user is created and
 * the owner's edits to a controller, a page and package.json are committed. Then:
 *
 *   1. `add two-factor`: the edits are still there, the typecheck and the layer's server tests
 *      pass, the user signs in over HTTP and POST /api/account/two-factor answers a secret;
 *   2. `add passkeys`: a passkey registration starts;
 *   3. `update --no-passkeys`: the code goes, the tables and their rows stay, the server
 *      type-checks, the app starts and the user still signs in.
 *
 *   npm run test:update [-- --keep]
 *
 * Prints the seconds of each step. Exits 1 on the first failure.
 */
import { execFileSync } from 'node:child_process'
import { appendFileSync, existsSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { parseArgs } from 'node:util'
import { execa } from 'execa'
import { freePort } from './lib/ports.js'
import { sharedNodeModules } from './lib/shared-install.js'
import { whileStarted } from './lib/start-script.js'

const { values } = parseArgs({ options: { keep: { type: 'boolean', default: false } } })
const BIN = fileURLToPath(new URL('../bin/create-cookie-auth-app.js', import.meta.url))
const USER = { email: 'ada@example.test', password: 'a long password for ada' }
const OWNER_MARKS = {
  'server/src/controllers/auth/me.ts': '// Owner: reviewed for the audit.\n',
  'client/src/pages/DashboardPage.vue': '<!-- Owner: our dashboard. -->\n',
}

const timings: [string, number][] = []
async function step<T>(title: string, run: () => Promise<T>): Promise<T> {
  console.log(`\n── ${title}`)
  const started = Date.now()
  const result = await run()
  timings.push([title, (Date.now() - started) / 1000])
  return result
}

function check(ok: boolean, what: string): void {
  if (!ok) throw new Error(what)
  console.log(`ok: ${what}`)
}

const root = mkdtempSync(join(tmpdir(), 'cca-update-'))
const app = join(root, 'app')
// No breached-password lookups over the network, and no user agent to pick a package manager.
const env: NodeJS.ProcessEnv = { ...process.env, PWNED_PASSWORDS: 'off', CI: '1' }
delete env.npm_config_user_agent
const git = (...args: string[]) => execFileSync('git', ['-c', 'user.name=Owner', '-c', 'user.email=owner@example.test', ...args], { cwd: app, encoding: 'utf8' })
const npm = (...args: string[]) => execa('npm', args, { cwd: app, env, stdio: 'inherit' })

/** Runs the CLI's update or add; returns its output, which it also prints. */
async function cli(args: string[]): Promise<string> {
  const run = await execa(process.execPath, [BIN, ...args, '--cwd', app, '--no-install'], { env, all: true, reject: false })
  console.log(run.all)
  if (run.exitCode !== 0) throw new Error(`create-cookie-auth-app ${args.join(' ')} exited with ${run.exitCode}`)
  return run.all ?? ''
}

/** What the CLI asked the owner to add to .env, added as the owner would. */
function copyEnvLines(output: string): void {
  const lines = /^Add to \.env[^\n]*\n((?: {2}\S+=.*\n?)+)/m.exec(output)?.[1]
  if (lines) appendFileSync(join(app, '.env'), lines.replace(/^ {2}/gm, ''))
}

/** Starts the server from source (no build), signs the user in and hands over a request function. */
async function whileSignedIn(use: (request: (method: string, path: string, body?: object) => Promise<Response>) => Promise<void>): Promise<void> {
  const tsx = join(app, 'node_modules/.bin/tsx')
  const { result } = await whileStarted(`${tsx} server/src/index.ts`, await freePort(), { cwd: app, env, stdio: 'inherit' }, async (health, base) => {
    check(health?.ok === true, 'the app starts and /api/health answers')
    const login = await fetch(`${base}/api/auth/login`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Origin: base },
      body: JSON.stringify(USER),
    })
    check(login.status === 200, `the existing user signs in (${login.status})`)
    const cookie = login.headers
      .getSetCookie()
      .map((line) => line.split(';')[0])
      .join('; ')
    await use((method, path, body) =>
      fetch(`${base}${path}`, { method, headers: { 'Content-Type': 'application/json', Origin: base, Cookie: cookie }, body: body && JSON.stringify(body) }),
    )
  })
  return result
}

/** The SQLite database's tables, read with the app's own driver. */
async function tables(): Promise<string[]> {
  const script = "import sqlite3 from 'sqlite3'; const db = new sqlite3.Database('data/app.sqlite'); db.all(\"SELECT name FROM sqlite_master WHERE type = 'table'\", (e, rows) => { if (e) throw e; console.log(JSON.stringify(rows.map((r) => r.name))) })"
  const { stdout } = await execa(process.execPath, ['--input-type=module', '-e', script], { cwd: app, env })
  return JSON.parse(stdout) as string[]
}

async function rows(table: string): Promise<number> {
  const script = `import sqlite3 from 'sqlite3'; new sqlite3.Database('data/app.sqlite').get('SELECT COUNT(*) AS n FROM ${table}', (e, row) => { if (e) throw e; console.log(row.n) })`
  return Number((await execa(process.execPath, ['--input-type=module', '-e', script], { cwd: app, env })).stdout)
}

const started = Date.now()
let failed = false
try {
  const modules = await step('shared install', () => sharedNodeModules())
  await step('generate the default app, commit it, create a user', async () => {
    await execa(process.execPath, [BIN, app, '--no-install', '--git', '--yes'], { env, stdio: 'inherit' })
    symlinkSync(modules, join(app, 'node_modules'), 'dir')
    // The link is a file to git, which `node_modules/` in .gitignore does not match.
    appendFileSync(join(app, '.git/info/exclude'), 'node_modules\n')
    await npm('run', 'db:migrate')
    await npm('run', 'user:create', '--', '--name', 'Ada', '--email', USER.email, '--password', USER.password)
  })
  await step("commit the owner's edits", async () => {
    for (const [file, mark] of Object.entries(OWNER_MARKS)) writeFileSync(join(app, file), mark + readFileSync(join(app, file), 'utf8'))
    const pkg = JSON.parse(readFileSync(join(app, 'package.json'), 'utf8'))
    pkg.scripts['owner:hello'] = 'echo hello'
    writeFileSync(join(app, 'package.json'), `${JSON.stringify(pkg, null, 2)}\n`)
    git('commit', '-qam', 'Owner edits')
  })

  const added = await step('add two-factor (migrates)', () => cli(['add', 'two-factor']))
  copyEnvLines(added)
  for (const [file, mark] of Object.entries(OWNER_MARKS)) check(readFileSync(join(app, file), 'utf8').startsWith(mark), `the owner's edit of ${file} is there`)
  check(JSON.parse(readFileSync(join(app, 'package.json'), 'utf8')).scripts['owner:hello'] === 'echo hello', "the owner's script is in package.json")
  git('add', '-A')
  git('commit', '-qm', 'add two-factor')
  await step('typecheck', () => npm('run', 'typecheck'))
  await step("two-factor's server tests", () => npm('exec', '--', 'vitest', 'run', '--project', 'server', 'server/tests/two-factor-'))
  await step('sign in, enable two-factor over HTTP', () =>
    whileSignedIn(async (request) => {
      const enable = await request('POST', '/api/account/two-factor', {})
      const body = (await enable.json()) as { secret?: string }
      check(enable.status === 200 && typeof body.secret === 'string', `POST /api/account/two-factor answers a secret (${enable.status})`)
    }),
  )

  copyEnvLines(await step('add passkeys (migrates)', () => cli(['add', 'passkeys'])))
  git('add', '-A')
  git('commit', '-qm', 'add passkeys')
  await step('sign in, start a passkey registration over HTTP', () =>
    whileSignedIn(async (request) => {
      const options = await request('POST', '/api/account/passkeys/options', {})
      const body = (await options.json()) as { challenge?: string }
      check(options.status === 200 && typeof body.challenge === 'string', `POST /api/account/passkeys/options answers a challenge (${options.status})`)
    }),
  )
  const passkeyChallenges = await rows('passkey_challenges')

  const removed = await step('update --no-passkeys', () => cli(['update', '--no-passkeys']))
  check(removed.includes('not the tables or their data'), 'the output says the tables stay')
  check(!existsSync(join(app, 'server/src/features/passkeys')), "the passkeys layer's code is gone")
  const left = await tables()
  check(left.includes('passkeys') && left.includes('passkey_challenges'), 'its tables stay')
  check((await rows('passkey_challenges')) === passkeyChallenges && passkeyChallenges > 0, `their rows stay (${passkeyChallenges})`)
  // The server's typecheck only: the client finds its layers by a glob, and lean beats a second full run.
  await step("server's typecheck without passkeys", () => npm('exec', '--', 'tsc', '--noEmit', '-p', 'tsconfig.server.json'))
  await step('sign in without passkeys', () =>
    whileSignedIn(async (request) => {
      check((await request('GET', '/api/auth/me')).status === 200, 'GET /api/auth/me answers')
    }),
  )
} catch (error) {
  failed = true
  console.error(`\nFAILED: ${(error as Error).message}`)
} finally {
  console.log('\nseconds per step:')
  for (const [title, seconds] of timings) console.log(`  ${seconds.toFixed(1).padStart(6)}  ${title}`)
  console.log(`  ${((Date.now() - started) / 1000).toFixed(1).padStart(6)}  in all`)
  if (values.keep) console.log(`kept: ${app}`)
  else rmSync(root, { recursive: true, force: true })
}
process.exitCode = failed ? 1 : 0
