/**
 * Two builds of a generated SQLite app serving side by side on one core, to decide a hot-path
 * change: both servers are pinned to core 0 and each is driven by its own wrk on core 1 at the
 * same time, so the scheduler splits the core between them and B's req/s over A's is the ratio
 * of their per-request costs. The machine's drift, ±5–10 % between bench:app runs, hits both
 * alike and cancels; passing one directory twice shows what is left (about ±2 %).
 *
 *   CCA_DEV_DIR=/tmp/ab/b npx tsx scripts/dev-app.ts sqlite && (cd /tmp/ab/b/sqlite && npm run build)
 *   # A: the same from a git worktree of the base revision, with CCA_DEV_DIR=/tmp/ab/a
 *   npm run bench:ab -- /tmp/ab/a/sqlite /tmp/ab/b/sqlite [--path /api/auth/me] [--rounds 5] [--seconds 5] [--login]
 *
 * Each app gets a fresh SQLite database (its migrations and one user, through its own CLI), and
 * every request carries that user's access cookie. `--login` drives successful logins instead
 * (16 connections each, rotating over 64 seeded accounts as bench:app's do), and compares
 * logins/s.
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { parseArgs } from 'node:util'
import { execa } from 'execa'
import { appEnv } from './lib/app-env.js'
import { medianBy } from './lib/median.js'
import { freePort } from './lib/ports.js'
import { killServers, login, startArgs, startServer } from './lib/server-process.js'
import { ensureWrk, wrk, type WrkOptions } from './lib/wrk.js'
import { LOGIN_ACCOUNTS, seedUsers, seededLogins } from './lib/seed-users.js'

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    path: { type: 'string', default: '/api/auth/me' },
    rounds: { type: 'string', default: '5' },
    seconds: { type: 'string', default: '5' },
    login: { type: 'boolean', default: false },
  },
})
if (positionals.length !== 2) throw new Error('usage: npm run bench:ab -- <built app A> <built app B> [--path P] [--rounds N] [--seconds N] [--login]')
const dirs = positionals.map((dir) => resolve(dir)) as [string, string]
const ROUNDS = Number(values.rounds)
const SECONDS = Number(values.seconds)
const EMAIL = 'bench@example.test'
/** A started server's measured URL and what wrk sends it (the access cookie, or logins). */
type App = { url: string; load: Omit<WrkOptions, 'seconds'> }
const PASSWORD = 'bench password 1'

await ensureWrk()
const root = mkdtempSync(join(tmpdir(), 'cca-ab-'))
try {
  const apps: App[] = []
  for (const [i, dir] of dirs.entries()) {
    const port = await freePort()
    const base = `http://127.0.0.1:${port}`
    const env: NodeJS.ProcessEnv = {
      ...appEnv(),
      NODE_ENV: 'production',
      PORT: String(port),
      BASE_URL: base,
      DATABASE_URL: `sqlite:${join(root, `${i}.sqlite`)}`,
      REDIS_URL: '',
      SMTP_URL: '',
      // No mail server: production may write mail to the log only when told so.
      MAIL_TRANSPORT: 'log',
    }
    const tsx = join(dir, 'node_modules', '.bin', 'tsx')
    if (values.login) {
      await seedUsers(dir, env, LOGIN_ACCOUNTS, PASSWORD)
      await startServer(startArgs(dir), env, dir, port, '/api/health', 0)
      const logins = seededLogins(PASSWORD)
      apps.push({ url: `${base}${logins.path}`, load: { connections: 16, login: logins, cpu: 1 } })
      continue
    }
    await execa(tsx, ['server/src/cli/migrate.ts'], { cwd: dir, env })
    await execa(tsx, ['server/src/cli/user-create.ts', '--name', 'Bench', '--email', EMAIL, '--password', PASSWORD], { cwd: dir, env })
    await startServer(startArgs(dir), env, dir, port, '/api/health', 0)
    const { cookies } = await login(base, EMAIL, PASSWORD)
    const access = Object.entries(cookies).find(([name]) => name.endsWith('_access'))
    if (!access) throw new Error(`${dir}: the login set no access cookie`)
    apps.push({ url: `${base}${values.path}`, load: { connections: 25, headers: { Cookie: `${access[0]}=${access[1]}` }, cpu: 1 } })
  }

  const drive = (app: App, seconds: number) => wrk(app.url, { ...app.load, seconds })
  // V8 compiles each server's hot path during the first seconds; no round should pay for it.
  await Promise.all(apps.map((app) => drive(app, 3)))
  const ratios: number[] = []
  const rate = (rps: number) => (values.login ? `${rps.toFixed(1)} logins/s` : `${Math.round(rps)} req/s`)
  const load = values.login ? `successful logins, 16 connections each over ${LOGIN_ACCOUNTS} accounts` : `${values.path}, 25 connections each`
  console.log(`${load}: A ${dirs[0]}, B ${dirs[1]}; both on core 0, driven from core 1, ${SECONDS} s rounds`)
  for (let round = 1; round <= ROUNDS; round++) {
    const [a, b] = await Promise.all(apps.map((app) => drive(app, SECONDS)))
    if (a!.failed + b!.failed > 0) throw new Error(`round ${round}: ${a!.failed} of A's and ${b!.failed} of B's answers were not 2xx`)
    ratios.push(b!.rps / a!.rps)
    console.log(`round ${round}: A ${rate(a!.rps)}, B ${rate(b!.rps)}, B/A ${ratios.at(-1)!.toFixed(3)}`)
  }
  const median = medianBy(ratios, (ratio) => ratio)
  console.log(`B/A median ${median.toFixed(3)} (range ${Math.min(...ratios).toFixed(3)}–${Math.max(...ratios).toFixed(3)})`)
} finally {
  killServers()
  rmSync(root, { recursive: true, force: true })
}
