import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { execa } from 'execa'

export interface WrkResult {
  url: string
  requests: number
  /** 2xx and 3xx answers per second. */
  okRps: number
  /** Non-2xx/3xx answers and socket errors. */
  failed: number
  /** Answers of 400 and over by status, where counted (the logins and one connection). */
  codes: Record<string, number>
  /** Requests per second, all answers. */
  rps: number
  /** Latency percentiles, milliseconds. */
  p50: number
  p99: number
}

export interface WrkOptions {
  connections: number
  seconds: number
  headers?: Record<string, string>
  /** Pause of each connection between its requests: a steady pace instead of as fast as possible. */
  delayMs?: number
  /** Run wrk pinned to this core. */
  cpu?: number
  /** POST JSON logins rotating over `accounts` users `user{n}@example.test`, each connection its own slice. */
  login?: { path: string; accounts: number; password: string }
  /** One POST body sent by every request (a token request), with its content type. */
  post?: { body: string; contentType: string }
}

/** wrk is Debian's package; benchmarks install it when it is missing (CI never runs them). */
export async function ensureWrk(): Promise<void> {
  if ((await execa('sh', ['-c', 'command -v wrk'], { reject: false })).exitCode === 0) return
  console.log('installing wrk (Debian package)')
  await execa('apt-get', ['update', '-qq'], { stdio: 'inherit' })
  await execa('apt-get', ['install', '-y', '-qq', 'wrk'], { stdio: 'inherit', env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' } })
}

const scripts = mkdtempSync(join(tmpdir(), 'cca-wrk-'))

/** Removes the Lua scripts' folder, for a benchmark's clean-up; a later `wrk` call would fail. */
export function removeWrkScripts(): void {
  rmSync(scripts, { recursive: true, force: true })
}

/** The summary as one JSON line, so nothing depends on wrk's human-readable units. */
const DONE = `
done = function(summary, latency, requests)
  local e = summary.errors
  local codes = {}
  for _, thread in ipairs(threads) do
    for code, count in pairs(thread:get("codes") or {}) do codes[#codes + 1] = string.format('"%d":%d', code, count) end
  end
  io.write(string.format('\\nRESULT {"requests":%d,"duration":%d,"status":%d,"socket":%d,"p50":%d,"p99":%d,"codes":{%s}}\\n',
    summary.requests, summary.duration, e.status, e.connect + e.read + e.write + e.timeout,
    latency:percentile(50), latency:percentile(99), table.concat(codes, ',')))
end
`

/**
 * Each thread counts its answers of 400 and over by status, for the notes (a row whose answers
 * were 429s or 503s measures something else). Lua runs per answer only where asked: the login
 * rows and the latency rows, whose figures a callback does not bend.
 */
const THREADS = `
threads = {}
setup = function(thread) table.insert(threads, thread) end
`
const CODES = `
codes = {}
response = function(status, headers, body)
  if status >= 400 then codes[status] = (codes[status] or 0) + 1 end
end
`

function luaScript(options: WrkOptions): string {
  const headers = Object.entries(options.headers ?? {})
    .map(([name, value]) => `wrk.headers[${JSON.stringify(name)}] = ${JSON.stringify(value)}\n`)
    .join('')
  // JSON string literals are valid Lua string literals for this ASCII text.
  const login = options.login
    ? `
local counter = 0
local offset = math.random(0, ${options.login.accounts - 1})
request = function()
  counter = counter + 1
  local n = ((counter + offset) % ${options.login.accounts}) + 1
  return wrk.format('POST', ${JSON.stringify(options.login.path)}, { ['Content-Type'] = 'application/json' },
    ${JSON.stringify('{"email":"user')} .. n .. ${JSON.stringify(`@example.test","password":${JSON.stringify(options.login.password)}}`)})
end
`
    : ''
  const post = options.post
    ? `wrk.method = "POST"\nwrk.body = ${JSON.stringify(options.post.body)}\nwrk.headers["Content-Type"] = ${JSON.stringify(options.post.contentType)}\n`
    : ''
  const delay = options.delayMs ? `delay = function() return ${options.delayMs} end\n` : ''
  return headers + post + login + delay + THREADS + (options.login || options.connections === 1 ? CODES : '') + DONE
}

export async function wrk(url: string, options: WrkOptions): Promise<WrkResult> {
  const script = join(scripts, `${Math.random().toString(36).slice(2)}.lua`)
  writeFileSync(script, luaScript(options))
  const threads = options.cpu === undefined ? Math.min(2, options.connections) : 1
  const pin = options.cpu === undefined ? [] : ['taskset', '-c', String(options.cpu)]
  const [command, ...prefix] = [...pin, 'wrk']
  const { stdout } = await execa(command!, [...prefix, '-t', String(threads), '-c', String(options.connections), '-d', `${options.seconds}s`, '--timeout', '10s', '-s', script, url])
  const line = stdout.split('\n').find((l) => l.startsWith('RESULT '))
  if (!line) throw new Error(`wrk printed no result:\n${stdout}`)
  const r = JSON.parse(line.slice('RESULT '.length)) as { requests: number; duration: number; status: number; socket: number; p50: number; p99: number; codes: Record<string, number> }
  const failed = r.status + r.socket
  return {
    url,
    requests: r.requests,
    okRps: (r.requests - r.status) / (r.duration / 1e6),
    failed,
    codes: r.codes,
    rps: r.requests / (r.duration / 1e6),
    p50: r.p50 / 1000,
    p99: r.p99 / 1000,
  }
}

/** The note a run with failures gets: how many, and by status where counted. */
export function failedNote(run: WrkResult): string {
  const codes = Object.entries(run.codes)
    .map(([code, count]) => `${count} × ${code}`)
    .join(', ')
  return `note: ${run.url}: ${run.failed} of ${run.requests} answers were not 2xx${codes ? ` (${codes})` : ''}`
}
