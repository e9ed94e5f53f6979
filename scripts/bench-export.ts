/**
 * The audit export at size: generates and builds a variant, seeds 100,000 credential events in
 * bulk, starts the built server (NODE_ENV=production) and downloads
 * `GET /api/activity/export` in each format, for the first 10,000 events and for all of them,
 * while sampling the server's resident memory.
 *
 *   npm run bench:export -- [sqlite] [--events 100000] [--small 10000] [--keep]
 *
 * Each row: the rows that came back (they must equal the range's events), the time from the
 * request to the last byte, the server's RSS just before (idle) and its peak during the download
 * (VmRSS sampled every 5 ms and the kernel's high-water mark VmHWM, reset before each run). The
 * export holds one page at a time, so the large range's peak should stay where the small one's
 * is. It is a benchmark, not a test: it prints numbers and never fails on them.
 */
import { randomBytes } from 'node:crypto'
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { parseArgs } from 'node:util'
import { ALL_VARIANT_IDS, variantAnswers } from '../src/variants.js'
import { appEnv } from './lib/app-env.js'
import { freshDatabase } from './lib/database.js'
import { freePort } from './lib/ports.js'
import { fmt, ms } from './lib/report.js'
import { seedEvents } from './lib/seed-events.js'
import { buildAndSeed } from './lib/seed-users.js'
import { killServers, login, startArgs, startServer } from './lib/server-process.js'
import { sharedNodeModules } from './lib/shared-install.js'

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    events: { type: 'string', default: '100000' },
    small: { type: 'string', default: '10000' },
    keep: { type: 'boolean', default: false },
  },
})
const variant = positionals[0] ?? 'sqlite'
if (!ALL_VARIANT_IDS.includes(variant)) throw new Error(`unknown variant ${variant}; known: ${ALL_VARIANT_IDS.join(', ')}`)
const EVENTS = Number(values.events)
const SMALL = Number(values.small)
if (!(SMALL > 0 && SMALL < EVENTS)) throw new Error('--small must be above 0 and below --events')
const USERS = 100
const PASSWORD = 'bench password 1'
const MiB = 1024 * 1024
/** One event a second, ending a day ago: inside the 90 days kept, apart from the bench's own sign-in. */
const START = new Date(Math.floor((Date.now() - 24 * 3600 * 1000) / 1000) * 1000 - EVENTS * 1000)
const instant = (index: number) => new Date(START.getTime() + index * 1000).toISOString()

const answers = variantAnswers(variant)
const modules = await sharedNodeModules()
const root = mkdtempSync(join(tmpdir(), 'cca-bench-export-'))
const dir = join(root, variant)
const database = await freshDatabase(answers.db, `cca_bench_${randomBytes(4).toString('hex')}`)
const env: NodeJS.ProcessEnv = {
  ...appEnv(),
  NODE_ENV: 'production',
  DATABASE_URL: database?.url ?? `sqlite:${join(dir, 'data', 'bench.sqlite')}`,
  REDIS_URL: '',
  SMTP_URL: '',
  MAIL_TRANSPORT: 'log',
}
delete env.npm_config_user_agent

interface Run {
  format: string
  events: number
  rows: number
  ms: number
  idle: number
  peak: number
}

try {
  await buildAndSeed(variant, dir, modules, env, USERS, PASSWORD, step)
  step(`seed ${fmt(EVENTS)} security events`)
  await seedEvents(dir, env, EVENTS, USERS, START)

  const port = await freePort()
  const base = `http://127.0.0.1:${port}`
  const server = await startServer(startArgs(dir), { ...env, PORT: String(port), BASE_URL: base }, dir, port, '/api/health')
  const { cookies } = await login(base, 'user1@example.test', PASSWORD)
  const cookie = Object.entries(cookies).map(([name, value]) => `${name}=${value}`).join('; ')
  const download = (format: string, events: number) => measure(server.pid!, `${base}/api/activity/export?from=${instant(0)}&to=${instant(events - 1)}&format=${format}`, cookie, format, events)

  step('warm-up: each format once over the small range')
  for (const format of ['ndjson', 'csv']) await download(format, SMALL)
  const runs: Run[] = []
  for (const format of ['ndjson', 'csv']) {
    for (const events of [SMALL, EVENTS]) {
      step(`${format}, ${fmt(events)} events`)
      runs.push(await download(format, events))
    }
  }
  report(runs)
} finally {
  killServers()
  await database?.drop().catch((error: Error) => console.log(`could not drop the database: ${error.message}`))
  if (values.keep) console.log(`kept ${root}`)
  else rmSync(root, { recursive: true, force: true })
}

/** Downloads `url`, counting records as they arrive, while sampling the server's RSS. */
async function measure(pid: number, url: string, cookie: string, format: string, events: number): Promise<Run> {
  const idle = memory(pid, 'VmRSS')
  // Writing 5 to clear_refs resets the high-water mark to the current RSS (Linux 4.0 and later).
  const resettable = resetPeak(pid)
  let sampled = idle
  const sampler = setInterval(() => (sampled = Math.max(sampled, memory(pid, 'VmRSS'))), 5)
  const started = performance.now()
  let newlines = 0
  try {
    const res = await fetch(url, { headers: { Cookie: cookie } })
    if (res.status !== 200) throw new Error(`${url}: ${res.status} ${await res.text()}`)
    for await (const chunk of res.body! as AsyncIterable<Uint8Array>) {
      for (let at = chunk.indexOf(0x0a); at !== -1; at = chunk.indexOf(0x0a, at + 1)) newlines++
    }
  } finally {
    clearInterval(sampler)
  }
  const elapsed = performance.now() - started
  const peak = Math.max(sampled, resettable ? memory(pid, 'VmHWM') : 0)
  // NDJSON: a line per event. CSV: a header line, then a record per event (no cell of these holds a line break).
  const rows = format === 'csv' ? newlines - 1 : newlines
  if (rows !== events) throw new Error(`${format}: ${rows} rows for ${events} events`)
  return { format, events, rows, ms: elapsed, idle, peak }
}

/** A field of /proc/<pid>/status in bytes. */
function memory(pid: number, field: 'VmRSS' | 'VmHWM'): number {
  const kb = new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1]
  if (kb === undefined) throw new Error(`no ${field} in /proc/${pid}/status`)
  return Number(kb) * 1024
}

function resetPeak(pid: number): boolean {
  try {
    writeFileSync(`/proc/${pid}/clear_refs`, '5')
    return true
  } catch {
    return false
  }
}

function report(runs: Run[]) {
  const mib = (bytes: number) => `${(bytes / MiB).toFixed(1)} MiB`
  console.log(`\nbench:export ${variant}: GET /api/activity/export, ${fmt(EVENTS)} events seeded, NODE_ENV=production, server as \`npm start\` runs it`)
  const header = ['format', 'events', 'rows', 'time', 'rows/s', 'idle RSS', 'peak RSS', 'peak − idle']
  const rows = runs.map((run) => [run.format, fmt(run.events), fmt(run.rows), ms(run.ms), fmt(run.rows / (run.ms / 1000)), mib(run.idle), mib(run.peak), mib(run.peak - run.idle)])
  const widths = header.map((_, i) => Math.max(...[header, ...rows].map((row) => row[i]!.length)))
  for (const row of [header, ...rows]) console.log(row.map((cell, i) => (i === 0 ? cell.padEnd(widths[i]!) : cell.padStart(widths[i]!))).join('  '))
  for (const format of ['ndjson', 'csv']) {
    const [small, large] = runs.filter((run) => run.format === format) as [Run, Run]
    console.log(`${format}: peak RSS with ${fmt(large.events)} events ${mib(large.peak)} against ${mib(small.peak)} with ${fmt(small.events)} (${large.peak >= small.peak ? '+' : '−'}${mib(Math.abs(large.peak - small.peak))} for ${large.events / small.events}× the rows)`)
  }
}

function step(message: string) {
  console.log(`\n━━ ${message}`)
}
