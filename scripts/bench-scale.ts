/**
 * What the scale-out costs and buys: a built variant on MySQL or PostgreSQL with Redis, behind
 * the generated app's own `deploy/nginx.conf` (Debian's nginx), with one instance and with two.
 *
 *   npm run bench:scale -- [mysql-oauth-redis] [--users 5000] [--seconds 10] [--revocations 200]
 *                          [--refresh-requests 12000] [--refresh-only] [--keep]
 *
 * Throughput: `/me` (access cookie) and successful logins through nginx, one instance against
 * two, in alternating rounds; the ratio two/one is the median of the rounds' own ratios. Then
 * revocation: a session revoked on instance a (`DELETE /api/account/sessions/:id`, the spec's
 * "that session revoked"), timed from a's answer to the first 401 that instance b gives its
 * access token, polled on b's own port back to back. Last, refresh load through nginx
 * (scripts/lib/refresh-load.ts): every answer counted by status, the target no 5xx
 * (`--refresh-only` runs that part alone). It is a benchmark, not a test: it prints numbers,
 * ratios and targets, and never fails on a time.
 */
import { spawn, type ChildProcess } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { availableParallelism, tmpdir } from 'node:os'
import { join } from 'node:path'
import { parseArgs } from 'node:util'
import { ALL_VARIANT_IDS, variant as findVariant, variantAnswers } from '../src/variants.js'
import { appEnv } from './lib/app-env.js'
import { freshDatabase, type FreshDatabase } from './lib/database.js'
import { medianBy } from './lib/median.js'
import { freePort } from './lib/ports.js'
import { nginxBinary } from './lib/scale-out.js'
import { buildAndSeed, LOGIN_ACCOUNTS, seededLogins } from './lib/seed-users.js'
import { killServers, login, startArgs, startServer } from './lib/server-process.js'
import { sharedNodeModules } from './lib/shared-install.js'
import { ensureWrk, failedNote, removeWrkScripts, wrk, type WrkResult } from './lib/wrk.js'
import { fmt, ms, verdict } from './lib/report.js'
import { refreshLoad, type RefreshLoadResult } from './lib/refresh-load.js'

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    users: { type: 'string', default: '5000' },
    seconds: { type: 'string', default: '10' },
    revocations: { type: 'string', default: '200' },
    'refresh-requests': { type: 'string', default: '12000' },
    'refresh-only': { type: 'boolean', default: false },
    keep: { type: 'boolean', default: false },
  },
})
const variant = positionals[0] ?? 'mysql-oauth-redis'
if (!ALL_VARIANT_IDS.includes(variant)) throw new Error(`unknown variant ${variant}; known: ${ALL_VARIANT_IDS.join(', ')}`)
const answers = variantAnswers(variant)
// Several instances need a shared database and Redis (the generated README says so).
if (answers.db === 'sqlite' || !findVariant(variant).redis) throw new Error(`bench:scale needs a MySQL or PostgreSQL variant on Redis (its id ends in -redis), not ${variant}`)
const USERS = Number(values.users)
const SECONDS = Number(values.seconds)
const REVOCATIONS = Number(values.revocations)
const REFRESH_REQUESTS = Number(values['refresh-requests'])
const PASSWORD = 'bench password 1'
const ROUNDS = 3
/** The account whose sessions are revoked: none of the login rotation's. */
const REVOKED_ACCOUNT = `user${USERS}@example.test`
/** Longer than the auth cache's 5 s bound, so a lost invalidation shows as ≈ 5 s, not as a hang. */
const POLL_LIMIT_MS = 10_000
if (USERS <= LOGIN_ACCOUNTS) throw new Error(`--users must exceed ${LOGIN_ACCOUNTS}`)

// Everything this run starts or creates, undone by `cleanUp` on success, error or Ctrl-C.
const root = mkdtempSync(join(tmpdir(), 'cca-bench-scale-'))
const dir = join(root, variant)
const others: ChildProcess[] = []
const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379'
/** Every key and channel of this run's instances, removed afterwards. */
const REDIS_PREFIX = `bench-scale-${randomBytes(3).toString('hex')}:`
let database: FreshDatabase | undefined
let cleaning: Promise<void> | undefined
function cleanUp(): Promise<void> {
  cleaning ??= (async () => {
    killServers()
    await stopAll(others)
    await dropRedisKeys().catch((error: Error) => console.log(`could not remove the Redis keys: ${error.message}`))
    await database?.drop().catch((error: Error) => console.log(`could not drop the database: ${error.message}`))
    removeWrkScripts()
    if (!values.keep) rmSync(root, { recursive: true, force: true })
    else console.log(`kept ${root}`)
  })()
  return cleaning
}

/**
 * SIGTERM first: nginx's master stops its workers only when asked (killed, it would leave them
 * holding the port); SIGKILL for whatever has not gone after 3 s.
 */
async function stopAll(children: ChildProcess[]) {
  const running = children.filter((child) => child.exitCode === null && child.signalCode === null)
  const exited = running.map((child) => new Promise((resolve) => child.once('exit', resolve)))
  for (const child of running) child.kill('SIGTERM')
  await Promise.race([Promise.all(exited), sleep(3000)])
  for (const child of running) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL')
}

/** The queue's and rate limits' keys the instances left under REDIS_PREFIX. */
async function dropRedisKeys() {
  if (!existsSync(join(dir, 'node_modules'))) return
  const redis = redisClient()
  try {
    const keys = await redis.keys(`${REDIS_PREFIX}*`)
    if (keys.length > 0) await redis.del(...keys)
  } finally {
    redis.disconnect()
  }
}

/** The part of ioredis this script uses. */
interface RedisClient {
  keys(pattern: string): Promise<string[]>
  del(...keys: string[]): Promise<number>
  subscribe(channel: string): Promise<unknown>
  on(event: 'message', listener: (channel: string, message: string) => void): unknown
  disconnect(): void
}

/** ioredis from the generated app's install: the generator's own dependencies have no Redis client. */
function redisClient(): RedisClient {
  const { Redis } = createRequire(join(dir, 'package.json'))('ioredis') as { Redis: new (url: string, options: object) => RedisClient }
  return new Redis(REDIS_URL, { maxRetriesPerRequest: 1 })
}

// Ctrl-C reaches the servers too (one process group); this process must still drop and remove.
// `on`, not `once`: npm and tsx relay the signal again, and a second one must not kill it midway.
for (const signal of ['SIGINT', 'SIGTERM'] as const) process.on(signal, () => void cleanUp().finally(() => process.exit(130)))

try {
  await main()
} finally {
  await cleanUp()
}

async function main() {
  await ensureWrk()
  const nginx = await nginxBinary()
  const modules = await sharedNodeModules()
  database = await freshDatabase(answers.db, `cca_bench_${randomBytes(4).toString('hex')}`)
  const [portA, portB, portOne, portTwo] = [await freePort(), await freePort(), await freePort(), await freePort()]
  const lbOne = `http://127.0.0.1:${portOne}`
  const lbTwo = `http://127.0.0.1:${portTwo}`
  // As deploy/compose.yaml runs them: production, TRUST_PROXY=1 behind nginx, WORKER=false on
  // the web instances with the jobs in a worker process of their own.
  const env: NodeJS.ProcessEnv = {
    ...appEnv(),
    NODE_ENV: 'production',
    DATABASE_URL: database!.url,
    REDIS_URL,
    REDIS_PREFIX,
    BASE_URL: lbTwo,
    TRUST_PROXY: '1',
    WORKER: 'false',
    SMTP_URL: '',
    MAIL_TRANSPORT: 'log',
  }
  delete env.npm_config_user_agent

  await buildAndSeed(variant, dir, modules, env, USERS, PASSWORD, step)

  step('start instances a and b, the worker, and nginx twice: one with a alone upstream, one with a and b')
  const a = await startServer(startArgs(dir), { ...env, PORT: String(portA), INSTANCE_ID: 'a' }, dir, portA, '/api/health')
  const b = await startServer(startArgs(dir), { ...env, PORT: String(portB), INSTANCE_ID: 'b' }, dir, portB, '/api/health')
  others.push(spawn('node', ['dist/server/cli/worker.js'], { cwd: dir, env, stdio: ['ignore', 'ignore', 'inherit'] }))
  const shipped = readFileSync(join(dir, 'deploy', 'nginx.conf'), 'utf8')
  await startNginx(nginx, join(root, 'nginx-one'), adaptSite(shipped, portOne, [portA]), lbOne)
  await startNginx(nginx, join(root, 'nginx-two'), adaptSite(shipped, portTwo, [portA, portB]), lbTwo)

  const session = await login(lbTwo, 'user1@example.test', PASSWORD)
  const accessName = `${answers.cookieName}_access`
  const accessOnly = `${accessName}=${session.cookies[accessName]}`
  const me = (lb: string) => wrk(`${lb}/api/auth/me`, { connections: 50, seconds: SECONDS, headers: { Cookie: accessOnly } })
  const logins = (lb: string, seconds = SECONDS) =>
    forgettingAborts(() => wrk(`${lb}/api/auth/login`, { connections: 16, seconds, login: seededLogins(PASSWORD) }))

  step('warm-up, 3 s per row and layout')
  for (const lb of [lbOne, lbTwo]) {
    await wrk(`${lb}/api/auth/me`, { connections: 50, seconds: 3, headers: { Cookie: accessOnly } })
    await logins(lb, 3)
  }
  if (!values['refresh-only']) {
    const meRounds = await alternate('GET /api/auth/me, 50 connections', () => me(lbOne), () => me(lbTwo), [a.pid!, b.pid!])
    const loginRounds = await alternate('successful logins, 16 connections', () => logins(lbOne), () => logins(lbTwo), [a.pid!, b.pid!])

    step(`${REVOCATIONS} revocations on a, each timed to the first 401 on b`)
    const revocations = await measureRevocations(`http://127.0.0.1:${portA}`, `http://127.0.0.1:${portB}`, lbTwo, accessName)
    report(meRounds, loginRounds, revocations)
  }

  step(`refresh load through nginx (two instances): ${REFRESH_REQUESTS.toLocaleString('en')} requests`)
  const accounts = Array.from({ length: 4 }, (_, i) => `user${i + 1}@example.test`)
  const load = await refreshLoad({ base: lbTwo, origin: lbTwo, accounts, password: PASSWORD, sessionsPerAccount: 4, requests: REFRESH_REQUESTS, cookieName: answers.cookieName })
  reportRefreshLoad(load, accounts.length)
}

// ── nginx ──────────────────────────────────────────────────────────────────────────────────

/**
 * The generated `deploy/nginx.conf` as shipped (compose mounts it as conf.d/default.conf), changed
 * only where this machine must differ from compose's network. Each change must match, so a change
 * to the shipped file stops the benchmark instead of silently measuring another config.
 */
function adaptSite(shipped: string, listenPort: number, upstreamPorts: number[]): string {
  // 1. `listen 80;` → `listen 127.0.0.1:<free port>;`: port 80 needs privileges (compose maps
  //    8080:80) and is not ours to take on a shared machine; loopback only, as nothing else calls.
  const listen = /^(\s*)listen 80;$/m
  if (!listen.test(shipped)) throw new Error('deploy/nginx.conf no longer says `listen 80;`: update adaptSite')
  let site = shipped.replace(listen, `$1listen 127.0.0.1:${listenPort};`)
  // 2. `server app-N:3000 <parameters>;` → one `server 127.0.0.1:<port> <parameters>;` per local
  //    instance: compose's service names do not resolve here, and instances on one host need a
  //    port each. The parameters (max_fails, fail_timeout) stay as shipped.
  const upstream = /^(\s*)server app-\d+:3000([^;\n]*);\n/gm
  const shippedLines = [...site.matchAll(upstream)]
  if (shippedLines.length === 0) throw new Error('deploy/nginx.conf has no `server app-N:3000` line: update adaptSite')
  const [, indent, parameters] = shippedLines[0]!
  const local = upstreamPorts.map((port) => `${indent}server 127.0.0.1:${port}${parameters};\n`).join('')
  let first = true
  site = site.replace(upstream, () => (first ? ((first = false), local) : ''))
  return site
}

/**
 * Stands in for the main nginx.conf around conf.d (Debian's /etc/nginx/nginx.conf; the nginx
 * image's is alike): its settings that shape proxying kept (worker_processes auto,
 * worker_connections 768, sendfile, tcp_nopush, an access log); its paths (pid, error and access
 * logs, the temp folders compiled in under /var/lib/nginx) moved into this run's folder, which
 * an unprivileged user can write; `user www-data` dropped, as only root may switch users; and
 * `daemon off`, so that this script owns the process and can stop it.
 */
function mainConfig(prefix: string, site: string): string {
  const temp = ['client_body', 'proxy', 'fastcgi', 'uwsgi', 'scgi'].map((kind) => `  ${kind}_temp_path ${prefix}/${kind};`).join('\n')
  return `worker_processes auto;
pid ${prefix}/nginx.pid;
error_log ${prefix}/error.log;
daemon off;
events {
  worker_connections 768;
}
http {
  sendfile on;
  tcp_nopush on;
  types_hash_max_size 2048;
  include /etc/nginx/mime.types;
  default_type application/octet-stream;
  access_log ${prefix}/access.log;
${temp}
  include ${site};
}
`
}

async function startNginx(binary: string, prefix: string, site: string, url: string): Promise<void> {
  mkdirSync(prefix)
  for (const kind of ['client_body', 'proxy', 'fastcgi', 'uwsgi', 'scgi']) {
    mkdirSync(join(prefix, kind))
    // Run as root, nginx's workers become `nobody`: they must be able to write there too.
    chmodSync(join(prefix, kind), 0o777)
  }
  // Traversable, not listable: the rendered app beside it holds its .env.
  chmodSync(root, 0o711)
  chmodSync(prefix, 0o711)
  writeFileSync(join(prefix, 'site.conf'), site)
  writeFileSync(join(prefix, 'nginx.conf'), mainConfig(prefix, join(prefix, 'site.conf')))
  // -e: the error log before the config is read (Debian's compiled-in one is /var/log/nginx).
  const child = spawn(binary, ['-p', prefix, '-e', join(prefix, 'error.log'), '-c', join(prefix, 'nginx.conf')], { stdio: ['ignore', 'ignore', 'inherit'] })
  others.push(child)
  const deadline = Date.now() + 10_000
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`nginx exited with ${child.exitCode}: ${readFileSync(join(prefix, 'error.log'), 'utf8')}`)
    try {
      if ((await fetch(`${url}/api/health`)).ok) return
    } catch {
      // not listening yet
    }
    await sleep(100)
  }
  throw new Error(`nginx at ${url} did not answer within 10 s`)
}

// ── throughput ─────────────────────────────────────────────────────────────────────────────

interface Round {
  one: WrkResult
  two: WrkResult
  /** Instance a's share of a's and b's CPU time during the two-instance run. */
  shareA: number
}

/**
 * ROUNDS rounds of one-instance and two-instance runs, the order swapped each round: the pair
 * shares the machine's drift (±10 % between runs here), which a ratio of medians would not
 * cancel. Instance b idles during the one-instance runs (its nginx has only a upstream); an idle
 * instance costs nothing measurable, and keeping it up avoids a restart per round.
 */
async function alternate(label: string, one: () => Promise<WrkResult>, two: () => Promise<WrkResult>, instances: [number, number]): Promise<Round[]> {
  const rounds: Round[] = []
  for (let round = 1; round <= ROUNDS; round++) {
    step(`${label}: round ${round}/${ROUNDS}, ${round % 2 ? 'one instance, then two' : 'two instances, then one'}`)
    const timedTwo = async () => {
      const before = instances.map(cpuTicks)
      const run = await two()
      const [usedA, usedB] = instances.map((pid, i) => cpuTicks(pid) - before[i]!) as [number, number]
      return { run, shareA: usedA / (usedA + usedB) }
    }
    if (round % 2) {
      const oneRun = await one()
      const { run, shareA } = await timedTwo()
      rounds.push({ one: oneRun, two: run, shareA })
    } else {
      const { run, shareA } = await timedTwo()
      rounds.push({ one: await one(), two: run, shareA })
    }
  }
  return rounds
}

/** CPU time (user + system, all threads) a process has used so far, in clock ticks. */
function cpuTicks(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8')
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
  return Number(fields[11]) + Number(fields[12])
}

/**
 * wrk stops with up to 16 logins in flight; nginx then drops them upstream, and the instances
 * count each as a failed login (a dropped connection and a refusal look alike to the limiter).
 * At 100 failures a minute from one address the login limit would answer 429 for the rest of
 * this run, revocations' sign-ins included: its counters are emptied after each run.
 */
async function forgettingAborts(run: () => Promise<WrkResult>): Promise<WrkResult> {
  const result = await run()
  const redis = redisClient()
  try {
    const keys = await redis.keys(`${REDIS_PREFIX}rl:login-*`)
    if (keys.length > 0) await redis.del(...keys)
  } finally {
    redis.disconnect()
  }
  return result
}

// ── revocation ─────────────────────────────────────────────────────────────────────────────

interface Revocation {
  /** From a's answer to the DELETE until b's first 401 arrived, ms. */
  delay: number
  /** b's answers of 200 to the revoked token after a had answered. */
  stale: number
  /** How long a took to answer the DELETE, ms. */
  answer: number
  /**
   * When this script's own subscriber to the instances' invalidation channel got a's message,
   * ms after a's answer (negative: before it). Splits `delay` into Redis's delivery and b's part.
   */
  message: number | undefined
}

/**
 * Each time: a fresh session of REVOKED_ACCOUNT signed in on a; b asked once with it (200), so
 * that b holds the session in its auth cache, which only an invalidation from a (Redis pub/sub)
 * or the cache's 5 s bound can drop; then a second session of the same account revokes it on a,
 * and b is asked with the revoked access token, back to back on one kept-alive connection, until
 * it answers 401. One request's round trip (under a millisecond here) bounds the resolution.
 */
async function measureRevocations(aUrl: string, bUrl: string, origin: string, accessName: string): Promise<Revocation[]> {
  const revoker = await login(aUrl, REVOKED_ACCOUNT, PASSWORD)
  // A bystander on the channel b listens to (kernel/auth/auth-cache.ts: `${REDIS_PREFIX}auth-cache`).
  const bystander = redisClient()
  let messageAt: number | undefined
  bystander.on('message', (_channel, text) => {
    if (messageAt === undefined && text.includes('sessionsOf')) messageAt = performance.now()
  })
  await bystander.subscribe(`${REDIS_PREFIX}auth-cache`)
  try {
    return await revokeMany(aUrl, bUrl, origin, accessName, revoker.cookies, () => messageAt, () => (messageAt = undefined))
  } finally {
    bystander.disconnect()
  }
}

async function revokeMany(
  aUrl: string,
  bUrl: string,
  origin: string,
  accessName: string,
  revoker: Record<string, string>,
  lastMessage: () => number | undefined,
  forgetMessage: () => void,
): Promise<Revocation[]> {
  const results: Revocation[] = []
  for (let i = 0; i < REVOCATIONS; i++) {
    const victim = await login(aUrl, REVOKED_ACCOUNT, PASSWORD)
    const victimAccess = `${accessName}=${victim.cookies[accessName]}`
    const id = await otherSessionId(aUrl, origin, revoker)
    const warm = await fetch(`${bUrl}/api/auth/me`, { headers: { Cookie: victimAccess } })
    await warm.arrayBuffer()
    if (warm.status !== 200) throw new Error(`b refused the fresh session before its revocation: ${warm.status}`)

    forgetMessage()
    const sent = performance.now()
    const revoked = await fetch(`${aUrl}/api/account/sessions/${id}`, { method: 'DELETE', headers: { Origin: origin, Cookie: cookieHeader(revoker) } })
    await revoked.arrayBuffer()
    const answered = performance.now()
    if (revoked.status !== 204) throw new Error(`DELETE /api/account/sessions/${id} on a: ${revoked.status}`)
    const { at, stale } = await firstRefusal(`${bUrl}/api/auth/me`, victimAccess, answered + POLL_LIMIT_MS)
    const message = lastMessage()
    results.push({ delay: at - answered, stale, answer: answered - sent, message: message === undefined ? undefined : message - answered })
    if ((i + 1) % 50 === 0) console.log(`${i + 1} revocations`)
  }
  return results
}

/** The id of the account's one live session other than the caller's (the one just signed in). */
async function otherSessionId(base: string, origin: string, cookies: Record<string, string>): Promise<string> {
  const res = await fetch(`${base}/api/account/sessions`, { headers: { Origin: origin, Cookie: cookieHeader(cookies) } })
  if (res.status !== 200) throw new Error(`GET /api/account/sessions: ${res.status}`)
  const { data } = (await res.json()) as { data: Array<{ id: string; current: boolean }> }
  const others = data.filter((session) => !session.current)
  if (others.length !== 1) throw new Error(`expected one other live session, found ${others.length}`)
  return others[0]!.id
}

/** Asks `url` back to back until it answers 401; when that answer arrived, and how many 200s came first. */
async function firstRefusal(url: string, cookie: string, deadline: number): Promise<{ at: number; stale: number }> {
  let stale = 0
  while (performance.now() < deadline) {
    const res = await fetch(url, { headers: { Cookie: cookie } })
    await res.arrayBuffer()
    if (res.status === 401) return { at: performance.now(), stale }
    if (res.status !== 200) throw new Error(`b answered ${res.status} while polled`)
    stale++
  }
  return { at: deadline, stale }
}

function cookieHeader(cookies: Record<string, string>): string {
  return Object.entries(cookies)
    .map(([name, value]) => `${name}=${value}`)
    .join('; ')
}

// ── output ─────────────────────────────────────────────────────────────────────────────────

function report(meRounds: Round[], loginRounds: Round[], revocations: Revocation[]) {
  const delays = sorted(revocations.map((each) => each.delay))
  const p99 = percentile(delays, 99)
  const staleCount = revocations.filter((each) => each.stale > 0).length
  const timedOut = revocations.filter((each) => each.delay >= POLL_LIMIT_MS).length
  console.log(`\nbench:scale ${variant}: ${USERS.toLocaleString('en')} users, NODE_ENV=production, ${answers.db === 'mysql' ? 'MariaDB' : 'PostgreSQL'} and Redis, ${availableParallelism()} cores`)
  console.log(`the generated deploy/nginx.conf (Debian's nginx; listen and upstream addresses, pid, log and temp paths adapted), instances with WORKER=false and a worker process`)
  console.log(`throughput through nginx, wrk ${SECONDS} s per run, ${ROUNDS} rounds alternating one instance and two (req/s: median; two/one: median of the rounds' ratios)`)
  console.log(`On ${availableParallelism()} cores two instances share the CPU one already had: two/one checks that nginx balances over both without a loss; it is not a scaling claim.\n`)
  printTable(
    ['measure', 'one instance', 'two instances', 'two/one', 'a : b (two)', 'target'],
    [throughputRow('GET /api/auth/me, access cookie, req/s', meRounds, (run) => run.rps), throughputRow('successful logins/s (16 connections, 64 accounts)', loginRounds, (run) => run.okRps)],
  )
  console.log(`\nrevocation: DELETE /api/account/sessions/:id on instance a, then b asked back to back with that session's access token (b had it cached)`)
  printTable(
    ['measure', 'value', 'detail', 'target'],
    [
      [`a's answer to the first 401 on b, p50 (${revocations.length} revocations)`, ms(percentile(delays, 50)), `(max ${ms(delays[delays.length - 1]!)})`, ''],
      [`a's answer to the first 401 on b, p99`, ms(p99), '', verdict(p99 <= 50, '≤ 50 ms')],
      ['revocations b still answered 200 after a had answered', String(staleCount), `(most 200s in one: ${Math.max(...revocations.map((each) => each.stale))})`, ''],
      [`a's own answer to the DELETE, p50`, ms(percentile(sorted(revocations.map((each) => each.answer)), 50)), '', ''],
      messageRow(revocations),
    ],
  )
  if (timedOut > 0) console.log(`note: ${timedOut} revocations were not seen on b within ${POLL_LIMIT_MS / 1000} s`)
  for (const run of [...meRounds, ...loginRounds].flatMap((round) => [round.one, round.two]).filter((each) => each.failed > 0)) {
    console.log(failedNote(run))
  }
}

function reportRefreshLoad(load: RefreshLoadResult, accounts: number) {
  const count = (test: (status: number) => boolean) => [...load.byStatus].filter(([status]) => test(status)).reduce((sum, [, n]) => sum + n, 0)
  const serverErrors = count((status) => status >= 500)
  console.log(`\nrefresh load through nginx to instances a and b: ${accounts} users, 4 sessions each, one client per session, each looping`)
  console.log(`GET /me (both cookies) ×2, GET /me (refresh cookie alone), POST /refresh-token (a rotation: invalidates the user's cached sessions everywhere)`)
  printTable(
    ['measure', 'value', 'detail', 'target'],
    [
      ['requests', fmt(load.requests), `(${fmt(load.requests / load.seconds)} req/s over ${load.seconds.toFixed(1)} s)`, ''],
      ['answers by status', [...load.byStatus].sort(([x], [y]) => x - y).map(([status, n]) => `${status}: ${n}`).join(', '), '', ''],
      ['5xx answers', String(serverErrors), `(no answer at all: ${load.failed})`, verdict(serverErrors === 0 && load.failed === 0, '0')],
    ],
  )
  // A 502 or 504 is nginx's own answer: its error log says which instance and why.
  const log = join(root, 'nginx-two', 'error.log')
  const upstream = existsSync(log) ? readFileSync(log, 'utf8').split('\n').filter((line) => line.includes('upstream')) : []
  if (upstream.length > 0) console.log(`nginx's error log, upstream lines (${upstream.length}):\n${upstream.slice(-5).join('\n')}`)
}

/** Where the delay goes: a's message on Redis as a bystander got it, against b's 401. */
function messageRow(revocations: Revocation[]): string[] {
  const seen = sorted(revocations.flatMap((each) => (each.message === undefined ? [] : [each.message])))
  if (seen.length === 0) return ["a's invalidation message, seen by a bystander subscriber", 'never', '', '']
  const signed = (value: number) => (value < 0 ? `−${ms(-value)}` : ms(value))
  return [
    "a's invalidation message on Redis, after a's answer, p50",
    signed(percentile(seen, 50)),
    `(p99 ${signed(percentile(seen, 99))}; seen by a subscriber of this script, ${seen.length} of ${revocations.length})`,
    '',
  ]
}

function sorted(values: number[]): number[] {
  return [...values].sort((x, y) => x - y)
}

function throughputRow(label: string, rounds: Round[], value: (run: WrkResult) => number): string[] {
  const ratios = rounds.map((round) => value(round.two) / value(round.one))
  const ratio = medianBy(ratios, (each) => each)
  const share = medianBy(rounds, (round) => round.shareA).shareA
  return [
    label,
    fmt(value(medianBy(rounds.map((round) => round.one), value))),
    fmt(value(medianBy(rounds.map((round) => round.two), value))),
    `${ratio.toFixed(2)} (rounds ${ratios.map((each) => each.toFixed(2)).join(', ')})`,
    `${Math.round(share * 100)} : ${Math.round((1 - share) * 100)}`,
    verdict(ratio >= 0.95, '≥ 0.95'),
  ]
}

/** Nearest rank: the value at or below which `p` % of the sorted `values` lie. */
function percentile(sorted: number[], p: number): number {
  return sorted[Math.max(0, Math.ceil((p / 100) * sorted.length) - 1)]!
}

function printTable(header: string[], rows: string[][]) {
  const widths = header.map((_, i) => Math.max(...[header, ...rows].map((row) => row[i]!.length)))
  // Numbers right-aligned: every column but the first, the detail and the target.
  const line = (row: string[]) => row.map((cell, i) => (i > 0 && i < header.length - 1 && !cell.startsWith('(') ? cell.padStart(widths[i]!) : cell.padEnd(widths[i]!))).join('  ').trimEnd()
  console.log(line(header))
  for (const row of rows) console.log(line(row))
}

function step(message: string) {
  console.log(`\n━━ ${message}`)
}

function sleep(ms: number) {
  return new Promise((resolve) => setTimeout(resolve, ms))
}

export {}
