/**
 * The generated server at realistic size, side by side with bare Express 5 from the same
 * install: generates and builds a variant, seeds 100,000 users (with teams: 1,000 shared teams,
 * one of 10,000 members, and a personal team each), starts the built server
 * (NODE_ENV=production) and a bare Express JSON hello, and drives both with wrk.
 *
 *   npm run bench:app -- sqlite [--users 100000] [--seconds 10] [--rounds 3] [--memory]
 *
 * Throughput rows: wrk, 50 connections. Latency rows of the users list: one connection, one
 * request after the other, so they are the time a request takes, not time spent queueing behind
 * 49 others; a variant with teams adds the members list of the big team beside them. The contention row runs 16 connections of successful logins and 50 of /me at once.
 * A variant with API keys makes a key through the API (sign in, confirm, POST) and measures /me
 * with it in the same rounds as /me with the access cookie: their req/s and ratio (≥ 0.95).
 * A variant with passwordless sign-in or Cap adds the e-mail sign-in request's and Cap's
 * redemption's latencies (scripts/lib/bench-sign-in-rows.ts). A variant that is an OAuth provider
 * measures /me with a person's provider access token in the same rounds (got by the device flow,
 * scripts/lib/bench-provider.ts), and the client credentials grant's tokens per second. A variant
 * with SSO asks SCIM's user filter with the big team's token and times SAML sign-ins at the big
 * team's ACS (scripts/lib/bench-sso.ts).
 * It is a benchmark, not a test: it prints numbers and ratios and never fails on a time.
 */
import { randomBytes } from 'node:crypto'
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { availableParallelism, tmpdir } from 'node:os'
import { join } from 'node:path'
import { parseArgs } from 'node:util'
import { execa } from 'execa'
import { ALL_VARIANT_IDS, variant as findVariant, variantAnswers } from '../src/variants.js'
import { appEnv } from './lib/app-env.js'
import { freshDatabase } from './lib/database.js'
import { sharedNodeModules } from './lib/shared-install.js'
import { cpuShares, cpuSnapshot, databaseQuiet } from './lib/cpu-share.js'
import { ensureWrk, failedNote, wrk, type WrkResult } from './lib/wrk.js'
import { medianBy } from './lib/median.js'
import { freePort } from './lib/ports.js'
import { createApiKey, killServers, login, startArgs, startServer, stop } from './lib/server-process.js'
import { buildAndSeed, LOGIN_ACCOUNTS, seededLogins } from './lib/seed-users.js'
import { BIG_TEAM_MEMBERS, BIG_TEAM_NAME, seedTeams, TEAMS } from './lib/seed-teams.js'
import { fmt, ms, verdict } from './lib/report.js'
import { BENCH_PROVIDER_ENV, providerCredentials } from './lib/bench-provider.js'
import { BENCH_CAP_ENV, BENCH_PASSWORDLESS_ENV, signInRows } from './lib/bench-sign-in-rows.js'
import { BENCH_SSO_ENV, samlSignInTimes, scimFilterRun } from './lib/bench-sso.js'
import { HEAP_SNAPSHOT_FLAG, heapSnapshot, rssByMapping } from './lib/memory-report.js'

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    users: { type: 'string', default: '100000' },
    seconds: { type: 'string', default: '10' },
    // More rounds steady the ratios' median on a machine whose speed drifts.
    rounds: { type: 'string', default: '3' },
    keep: { type: 'boolean', default: false },
    // After the RSS at rest: that RSS by mapping, and the live heap from a heap snapshot.
    memory: { type: 'boolean', default: false },
  },
})
const variant = positionals[0] ?? 'sqlite'
if (!ALL_VARIANT_IDS.includes(variant)) throw new Error(`unknown variant ${variant}; known: ${ALL_VARIANT_IDS.join(', ')}`)
const USERS = Number(values.users)
const SECONDS = Number(values.seconds)
const PASSWORD = 'bench password 1'
const ROUNDS = Number(values.rounds)
if (!Number.isInteger(ROUNDS) || ROUNDS < 1) throw new Error('--rounds takes a whole number from 1')
/** Core of the servers in the throughput rounds; wrk takes the other one. */
const PINNED = 0
/** Requests of the row that follows each one with a user change. */
const AFRESH = 20

await ensureWrk()
const answers = variantAnswers(variant)
const modules = await sharedNodeModules()
const root = mkdtempSync(join(tmpdir(), 'cca-bench-'))
const dir = join(root, variant)
const database = await freshDatabase(answers.db, `cca_bench_${randomBytes(4).toString('hex')}`)
const env: NodeJS.ProcessEnv = {
  ...appEnv(),
  NODE_ENV: 'production',
  DATABASE_URL: database?.url ?? `sqlite:${join(dir, 'data', 'bench.sqlite')}`,
  // A variant on Redis (its id says -redis) is measured on Redis.
  REDIS_URL: findVariant(variant).redis ? (process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379') : '',
  REDIS_PREFIX: `bench-${randomBytes(3).toString('hex')}:`,
  SMTP_URL: '',
  // No mail server: production may write mail to the log only when told so.
  MAIL_TRANSPORT: 'log',
  // A key's own limit (600 a minute) would answer the throughput rows 429: counting stays in the
  // measure, refusing does not.
  ...(answers.apiKeys ? { RATE_LIMIT_API_KEY: '999999999' } : {}),
  ...(answers.passwordless ? BENCH_PASSWORDLESS_ENV : {}),
  ...(answers.captcha === 'cap' ? BENCH_CAP_ENV : {}),
  ...(answers.oauthProvider ? BENCH_PROVIDER_ENV : {}),
  ...(answers.sso ? BENCH_SSO_ENV : {}),
}
delete env.npm_config_user_agent

try {
  await buildAndSeed(variant, dir, modules, env, USERS, PASSWORD, step)
  if (answers.teams) {
    step(`seed ${TEAMS.toLocaleString('en')} teams, one of ${BIG_TEAM_MEMBERS.toLocaleString('en')} members`)
    await seedTeams(dir, env, USERS)
  }

  writeFileSync(join(dir, 'bench-bcrypt.mjs'), bcryptScript())
  const bcryptRate = async () => Number((await execa('node', ['bench-bcrypt.mjs'], { cwd: dir, env })).stdout.trim())

  const helloPort = await freePort()
  writeFileSync(join(dir, 'bench-hello.mjs'), helloScript())
  const hello = await startServer(['bench-hello.mjs'], { ...env, PORT: String(helloPort) }, dir, helloPort, '/hello', PINNED)
  const port = await freePort()
  const base = `http://127.0.0.1:${port}`
  const server = await startServer(startArgs(dir), { ...env, PORT: String(port), BASE_URL: base }, dir, port, '/api/health', PINNED)

  step('waiting for the database server to finish its own work after the load')
  const settled = await databaseQuiet()
  const admin = await login(base, 'user1@example.test', PASSWORD)
  const cookieName = answers.cookieName
  const accessOnly = `${cookieName}_access=${admin.cookies[`${cookieName}_access`]}`
  const refreshOnly = `${cookieName}_refresh=${admin.cookies[`${cookieName}_refresh`]}`
  const bearer = answers.apiKeys ? { Authorization: `Bearer ${await createApiKey(base, accessOnly, PASSWORD)}` } : undefined
  const provider = answers.oauthProvider ? await providerCredentials(base, admin.cookies) : undefined
  const tokenBearer = provider ? { Authorization: `Bearer ${provider.personToken}` } : undefined
  const tokenRequest = provider ? { headers: { Authorization: provider.clientCredentials.authorization }, post: { body: provider.clientCredentials.body, contentType: 'application/x-www-form-urlencoded' } } : undefined

  // Rounds alternate between the servers, each pinned to core 0 with wrk on core 1, and each
  // round's ratio counts: this machine's throughput drifts by ±10 % from one run to the next.
  // A warm-up first, so that no round pays for V8 compiling either server's hot path.
  step('throughput warm-up, 3 s each')
  await wrk(`http://127.0.0.1:${helloPort}/hello`, { connections: 50, seconds: 3, cpu: 1 })
  await wrk(`${base}/api/auth/me`, { connections: 50, seconds: 3, headers: { Cookie: accessOnly }, cpu: 1 })
  await wrk(`${base}/api/auth/me`, { connections: 50, seconds: 3, headers: { Cookie: refreshOnly }, cpu: 1 })
  if (bearer) await wrk(`${base}/api/auth/me`, { connections: 50, seconds: 3, headers: bearer, cpu: 1 })
  if (tokenBearer) await wrk(`${base}/api/auth/me`, { connections: 50, seconds: 3, headers: tokenBearer, cpu: 1 })
  if (tokenRequest) await wrk(`${base}/oauth2/token`, { connections: 50, seconds: 3, ...tokenRequest, cpu: 1 })
  const helloRuns: WrkResult[] = []
  const meRuns: WrkResult[] = []
  const renewRuns: WrkResult[] = []
  const keyRuns: WrkResult[] = []
  const tokenRuns: WrkResult[] = []
  const grantRuns: WrkResult[] = []
  for (let round = 1; round <= ROUNDS; round++) {
    step(`throughput round ${round}/${ROUNDS}: hello, /me with the access cookie, ${bearer ? '/me with an API key, ' : ''}/me with the refresh cookie only`)
    helloRuns.push(await wrk(`http://127.0.0.1:${helloPort}/hello`, { connections: 50, seconds: SECONDS, cpu: 1 }))
    meRuns.push(await wrk(`${base}/api/auth/me`, { connections: 50, seconds: SECONDS, headers: { Cookie: accessOnly }, cpu: 1 }))
    // Right after the cookie's run, so that the pair shares the machine's drift.
    if (bearer) keyRuns.push(await wrk(`${base}/api/auth/me`, { connections: 50, seconds: SECONDS, headers: bearer, cpu: 1 }))
    if (tokenBearer) tokenRuns.push(await wrk(`${base}/api/auth/me`, { connections: 50, seconds: SECONDS, headers: tokenBearer, cpu: 1 }))
    if (tokenRequest) grantRuns.push(await wrk(`${base}/oauth2/token`, { connections: 50, seconds: SECONDS, ...tokenRequest, cpu: 1 }))
    renewRuns.push(await wrk(`${base}/api/auth/me`, { connections: 50, seconds: SECONDS, headers: { Cookie: refreshOnly }, cpu: 1 }))
  }
  await stop(hello)
  const [helloRun, meRun, renewRun] = [helloRuns, meRuns, renewRuns].map((runs) => medianBy(runs, (run) => run.rps)) as [WrkResult, WrkResult, WrkResult]
  // Logins get both cores, as they would in production.
  await stop(server)
  const freeArgs = values.memory ? [HEAP_SNAPSHOT_FLAG, ...startArgs(dir)] : startArgs(dir)
  const free = await startServer(freeArgs, { ...env, PORT: String(port), BASE_URL: base }, dir, port, '/api/health')

  const loginBody = seededLogins(PASSWORD)
  step('logins warm-up, 3 s')
  await wrk(`${base}/api/auth/login`, { connections: 16, seconds: 3, login: loginBody })
  // Each round pairs bcrypt's rate alone (the server idle) with the logins right after it, and
  // the rounds' ratios give the median: the machine's speed drifts more than the gap measured.
  const loginRounds: Array<{ ratio: number; logins: number; compares: number; run: WrkResult; cpu: string }> = []
  for (let round = 1; round <= ROUNDS; round++) {
    step(`logins round ${round}/${ROUNDS}: bcrypt cost-10 compares/s alone, then successful logins (16 connections)`)
    const compares = await bcryptRate()
    const before = cpuSnapshot(free.pid!)
    const run = await wrk(`${base}/api/auth/login`, { connections: 16, seconds: SECONDS, login: loginBody })
    loginRounds.push({ ratio: run.okRps / compares, logins: run.okRps, compares, run, cpu: cpuShares(before, cpuSnapshot(free.pid!)) })
  }
  const loginRatio = medianBy(loginRounds, (round) => round.ratio)
  // The /me probe asks at a steady pace (10 connections, 10 ms apart) rather than as fast as it
  // can: a saturated server queues every request, logins or not, and that is not starvation.
  const probe = { connections: 10, seconds: SECONDS, headers: { Cookie: accessOnly }, delayMs: 10 }
  step('GET /api/auth/me probe alone, then while 16 connections log in')
  const quiet = await wrk(`${base}/api/auth/me`, probe)
  const [contended] = await Promise.all([
    wrk(`${base}/api/auth/me`, probe),
    wrk(`${base}/api/auth/login`, { connections: 16, seconds: SECONDS, login: loginBody }),
  ])

  const list = async (query: string) => {
    step(`GET /api/users?${query}`)
    return wrk(`${base}/api/users?${query}`, { connections: 1, seconds: Math.max(3, SECONDS / 2), headers: { Cookie: accessOnly } })
  }
  const page1 = await list('page=1&size=10')
  const page5000 = await list(`page=${Math.floor(USERS / 20)}&size=10`)
  const searchAscii = await list('search=user%2099')
  const searchUnicode = await list('search=%C3%A9lodie')
  // The DataTable's sort and filters (issue 11), held to the list budget on their deepest page.
  const deep = Math.floor(USERS / 20)
  const sortedDeep = await list(`sort=name&page=${deep}&size=10`)
  const sortedNewest = await list('sort=-createdAt&page=1&size=10')
  const filteredQuery = `filter%5Brole%5D=user&filter%5Bverified%5D=true&sort=-email&page=${deep}&size=10`
  const filteredDeep = await list(filteredQuery)
  // The rows above ask one query over and over, so after its first request each total comes from
  // the server's cache of totals (kernel/services/user-counts.ts). Here each request follows a change
  // to a user, which empties that cache: what the first page of a new filter costs.
  step(`GET /api/users?${filteredQuery}, each right after a user change`)
  const filteredAfresh = await afterUserChange(base, `/api/users?${filteredQuery}`, accessOnly)
  const teamRows = answers.teams ? await membersRows(base, accessOnly) : { rows: [], runs: [] }
  const layerRows = await signInRows({ base, dir, passwordless: answers.passwordless, captcha: answers.captcha === 'cap', step })
  if (answers.sso) step('GET /scim/v2/Users?filter=userName eq "…" with the big team\'s SCIM token')
  const scim = answers.sso ? await scimFilterRun(base, accessOnly, PASSWORD, SECONDS) : undefined
  if (scim) step("SAML sign-ins started at the IdP, posted to the big team's ACS one after the other")
  const saml = scim ? await samlSignInTimes(dir, { ...env, BASE_URL: base }, base, scim.teamId) : undefined
  const rss = rssMiB(free.pid!)
  // At rest is after the load: bcrypt's threads end 10 s after the last login, and V8 gives back
  // the young generation it grew to 32 MiB under load once the process idles.
  step('the server idle for 15 s, then its RSS at rest')
  await new Promise((resolve) => setTimeout(resolve, 15_000))
  const rssAtRest = rssMiB(free.pid!)
  const memory = values.memory ? [...rssByMapping(free.pid!), ...(await heapSnapshot(free.pid!, dir, `${base}/api/health`))] : []
  await stop(free)

  const rows: Row[] = [
    ['bare Express 5 JSON hello, req/s', fmt(helloRun.rps), '', ''],
    rowRatio('GET /api/auth/me, access cookie, req/s', meRun, 0.7, meRuns, helloRuns),
    ...(bearer ? [keyRow(keyRuns, meRuns)] : []),
    ...(tokenBearer ? [providerTokenRow(tokenRuns, meRuns)] : []),
    ...(tokenRequest ? [clientCredentialsRow(grantRuns)] : []),
    rowRatio('GET /api/auth/me, refresh cookie only, req/s', renewRun, 0.4, renewRuns, helloRuns),
    ['GET /api/auth/me p99 while 16 connections log in', ms(contended.p99), `(alone: ${ms(quiet.p99)})`, verdict(contended.p99 <= 50, '≤ 50 ms')],
    rowLatency('GET /api/users?page=1&size=10, p50', page1, 20),
    rowLatency(`GET /api/users?page=${Math.floor(USERS / 20)}&size=10, p50`, page5000, 20),
    rowLatency('GET /api/users?search=user%2099, p50', searchAscii, 50),
    rowLatency('GET /api/users?search=élodie, p50', searchUnicode, 50),
    rowLatency(`GET /api/users?sort=name&page=${deep}&size=10, p50`, sortedDeep, 20),
    rowLatency('GET /api/users?sort=-createdAt&page=1&size=10, p50', sortedNewest, 20),
    rowLatency(`GET /api/users?filter[role]=user&filter[verified]=true&sort=-email&page=${deep}, p50`, filteredDeep, 20),
    ['  the same, each right after a user change (total counted afresh), p50', ms(filteredAfresh.p50), `(max ${ms(filteredAfresh.max)}; ${AFRESH} requests)`, ''],
    ...teamRows.rows,
    ...layerRows,
    ...(scim ? [rowLatency(`GET /scim/v2/Users?filter=userName eq "${scim.userName}" (${BIG_TEAM_MEMBERS.toLocaleString('en')} members), p50`, scim.run, 20)] : []),
    ...(saml ? [['POST /api/auth/sso/saml/:teamId/acs, a whole SAML sign-in, p50', ms(saml.p50), `(p99 ${ms(saml.p99)}; ${saml.count} sign-ins, one after the other)`, ''] as Row] : []),
    ['server RSS right after the load', `${rss.toFixed(0)} MiB`, '', ''],
    ['server RSS at rest, 15 s after the load', `${rssAtRest.toFixed(0)} MiB`, '', verdict(rssAtRest <= 150, '≤ 150 MiB')],
    [
      'successful logins/s ÷ bcrypt compares/s',
      loginRatio.ratio.toFixed(2),
      `(${fmt(loginRatio.logins)} ÷ ${fmt(loginRatio.compares)}; rounds ${loginRounds.map((round) => round.ratio.toFixed(2)).join(', ')})`,
      verdict(loginRatio.ratio >= 0.9, '≥ 0.90'),
    ],
  ]
  const failures = [...helloRuns, ...meRuns, ...keyRuns, ...tokenRuns, ...grantRuns, ...renewRuns, ...loginRounds.map((round) => round.run), quiet, contended, ...(scim ? [scim.run] : []), page1, page5000, searchAscii, searchUnicode, sortedDeep, sortedNewest, filteredDeep, ...teamRows.runs].filter((run) => run.failed > 0)
  console.log(`\nbench:app ${variant}: ${USERS.toLocaleString('en')} users, NODE_ENV=production, ${availableParallelism()} cores, wrk ${SECONDS} s per row`)
  console.log(`throughput: 50 connections, ${ROUNDS} alternating rounds (req/s: median; ratio: median of the rounds' ratios), server on core 0 and wrk on core 1, after a warm-up and once the database server was quiet (${settled} s)`)
  console.log('/me probe: 10 connections, 10 ms apart; list latencies: 1 connection, sequential')
  console.log(`logins: 16 connections rotating over ${LOGIN_ACCOUNTS} accounts, both cores; median ratio of ${ROUNDS} rounds, each bcrypt alone (5 s) then logins\n`)
  printTable(['measure', 'value', 'detail', 'target'], rows)
  console.log(`\nCPU during the median logins round, of ${availableParallelism()} cores: ${loginRatio.cpu}`)
  if (memory.length > 0) console.log(`\nthe RSS at rest by mapping, then the live heap (a snapshot taken after it was read):\n${memory.join('\n')}`)
  for (const run of failures) console.log(failedNote(run))
} finally {
  killServers()
  await database?.drop()
  if (!values.keep) rmSync(root, { recursive: true, force: true })
  else console.log(`kept ${dir}`)
}

type Row = [string, string, string, string]

/**
 * Each round's ratio of the two runs made right after each other, and their median: the pair
 * shares the machine's drift, which a ratio of separate medians would not cancel.
 */
function rowRatio(label: string, run: WrkResult, target: number, runs: WrkResult[], baselines: WrkResult[]): Row {
  const ratios = runs.map((each, i) => each.rps / baselines[i]!.rps)
  const ratio = medianBy(ratios, (each) => each)
  return [label, fmt(run.rps), `ratio ${ratio.toFixed(2)} (rounds ${ratios.map((each) => each.toFixed(2)).join(', ')})`, verdict(ratio >= target, `≥ ${target.toFixed(2)}`)]
}

/**
 * `/api/auth/me` with an API key against the access cookie's, round by round: both req/s (medians)
 * and the median of the rounds' ratios. A hit in the key cache costs no query (target ≥ 0.95).
 */
function keyRow(keyRuns: WrkResult[], cookieRuns: WrkResult[]): Row {
  const ratios = keyRuns.map((run, i) => run.rps / cookieRuns[i]!.rps)
  const ratio = medianBy(ratios, (each) => each)
  const key = medianBy(keyRuns, (run) => run.rps)
  const cookie = medianBy(cookieRuns, (run) => run.rps)
  return [
    'GET /api/auth/me with an API key, req/s',
    fmt(key.rps),
    `÷ the access cookie's ${fmt(cookie.rps)}: ratio ${ratio.toFixed(2)} (rounds ${ratios.map((each) => each.toFixed(2)).join(', ')})`,
    verdict(ratio >= 0.95, '≥ 0.95'),
  ]
}

/**
 * `/api/auth/me` with a person's access token from the OAuth provider (an ES256 JWT, verified by
 * signature once per token, then its grant looked up in the kernel's credential cache) against the access
 * cookie's (HS256), round by round.
 */
function providerTokenRow(tokenRuns: WrkResult[], cookieRuns: WrkResult[]): Row {
  const ratios = tokenRuns.map((run, i) => run.rps / cookieRuns[i]!.rps)
  const ratio = medianBy(ratios, (each) => each)
  const token = medianBy(tokenRuns, (run) => run.rps)
  const cookie = medianBy(cookieRuns, (run) => run.rps)
  return [
    'GET /api/auth/me with a provider access token, req/s',
    fmt(token.rps),
    `÷ the access cookie's ${fmt(cookie.rps)}: ratio ${ratio.toFixed(2)} (rounds ${ratios.map((each) => each.toFixed(2)).join(', ')})`,
    verdict(ratio >= 0.95, '≥ 0.95'),
  ]
}

/** Client credentials tokens the provider issues a second on its one core: Keycloak's sizing guide gives 120 per vCPU, the target is ten times that. */
function clientCredentialsRow(runs: WrkResult[]): Row {
  const run = medianBy(runs, (each) => each.okRps)
  return ['POST /oauth2/token, client credentials, tokens/s', fmt(run.okRps), `p50 ${ms(run.p50)}; rounds ${runs.map((each) => fmt(each.okRps)).join(', ')}`, verdict(run.okRps >= 1200, '≥ 1,200')]
}

/**
 * `GET /api/teams/:id/members` of the big team (user1 owns it), held to the users list's budgets:
 * its first and last page in join order, a search, and a deep page sorted by name. Unlike the
 * users list it keeps no cache of totals, so each request counts its team afresh.
 */
async function membersRows(base: string, cookie: string): Promise<{ rows: Row[]; runs: WrkResult[] }> {
  const res = await fetch(`${base}/api/teams`, { headers: { Cookie: cookie } })
  const big = ((await res.json()) as { data: { id: number; name: string }[] }).data.find((team) => team.name === BIG_TEAM_NAME)
  if (!big) throw new Error(`GET /api/teams: no team ${BIG_TEAM_NAME} (${res.status})`)
  const path = `/api/teams/${big.id}/members`
  const last = BIG_TEAM_MEMBERS / 10
  const queries: [string, number][] = [
    ['page=1&size=10', 20],
    [`page=${last}&size=10`, 20],
    ['search=user%2099', 50],
    [`sort=name&page=${last / 2}&size=10`, 20],
  ]
  const rows: Row[] = []
  const runs: WrkResult[] = []
  for (const [query, target] of queries) {
    step(`GET ${path}?${query}`)
    const run = await wrk(`${base}${path}?${query}`, { connections: 1, seconds: Math.max(3, SECONDS / 2), headers: { Cookie: cookie } })
    runs.push(run)
    rows.push(rowLatency(`GET /api/teams/:id/members?${query} (${BIG_TEAM_MEMBERS.toLocaleString('en')} members), p50`, run, target))
  }
  return { rows, runs }
}

function rowLatency(label: string, run: WrkResult, targetMs: number): Row {
  return [label, ms(run.p50), `(p99 ${ms(run.p99)})`, verdict(run.p50 <= targetMs, `≤ ${targetMs} ms`)]
}

function printTable(header: Row, rows: Row[]) {
  const widths = header.map((_, i) => Math.max(...[header, ...rows].map((row) => row[i]!.length)))
  const line = (row: Row) => row.map((cell, i) => (i === 1 ? cell.padStart(widths[i]!) : cell.padEnd(widths[i]!))).join('  ').trimEnd()
  console.log(line(header))
  for (const row of rows) console.log(line(row))
}

function step(message: string) {
  console.log(`\n━━ ${message}`)
}


function rssMiB(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8')
  return Number(/VmRSS:\s+(\d+) kB/.exec(status)?.[1] ?? 0) / 1024
}

/** `path` timed on its own, each time right after renaming user 2 to its own name (which empties the totals). */
async function afterUserChange(base: string, path: string, cookie: string): Promise<{ p50: number; max: number }> {
  const times: number[] = []
  for (let i = 0; i < AFRESH; i++) {
    const change = await fetch(`${base}/api/users/2`, { method: 'PATCH', headers: { Cookie: cookie, 'Content-Type': 'application/json' }, body: '{"name":"User 2"}' })
    if (change.status !== 200) throw new Error(`PATCH /api/users/2: ${change.status} ${await change.text()}`)
    const started = performance.now()
    const res = await fetch(`${base}${path}`, { headers: { Cookie: cookie } })
    await res.arrayBuffer()
    if (res.status !== 200) throw new Error(`${path}: ${res.status}`)
    times.push(performance.now() - started)
  }
  times.sort((a, b) => a - b)
  return { p50: times[Math.floor(times.length / 2)]!, max: times[times.length - 1]! }
}

/** bcrypt's own ceiling on this machine: compare calls kept 16 deep for 5 s, as 16 login connections would. */
function bcryptScript(): string {
  return `import bcrypt from 'bcrypt'
const hash = await bcrypt.hash('${PASSWORD}', 10)
let done = 0
const until = Date.now() + 5000
async function lane() { while (Date.now() < until) { await bcrypt.compare('${PASSWORD}', hash); done++ } }
const started = Date.now()
await Promise.all(Array.from({ length: 16 }, lane))
console.log(done / ((Date.now() - started) / 1000))
`
}

function helloScript(): string {
  return `import express from 'express'
const app = express()
app.get('/hello', (_req, res) => res.json({ hello: 'world' }))
app.listen(Number(process.env.PORT), '127.0.0.1')
`
}

export {}
