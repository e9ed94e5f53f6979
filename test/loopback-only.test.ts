import { spawn } from 'node:child_process'
import { describe, expect, it } from 'vitest'
import { appEnv } from '../scripts/lib/app-env.js'

/**
 * The loopback-only preload that scripts/lib/app-env.ts puts into every process the generator's
 * runs start for a generated app: Node started with that environment, as a server or a test run
 * would be, tries each way out. 192.0.2.1 (TEST-NET-1) and example.com are never asked: the
 * refusal comes before any packet, so these tests pass offline and prove nothing left.
 */
function run(script: string): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--input-type=module', '-e', script], { env: appEnv(), stdio: ['ignore', 'pipe', 'pipe'] })
    let [stdout, stderr] = ['', '']
    child.stdout.on('data', (chunk) => (stdout += chunk))
    child.stderr.on('data', (chunk) => (stderr += chunk))
    child.on('error', reject)
    child.on('close', (code) => resolve({ code, stdout, stderr }))
  })
}

/** Prints what `attempt` (an expression of a promise) ends with: `ok <value>` or `<error code> <message>`. */
const outcome = (attempt: string) => `await (${attempt}).then((value) => console.log('ok', value), (error) => console.log((error.cause ?? error).code, (error.cause ?? error).message))`

/** A server on 127.0.0.1 answering 204, its port in `port`. */
const LOCAL_SERVER = `
import http from 'node:http'
import net from 'node:net'
import dns from 'node:dns'
const server = http.createServer((request, response) => response.writeHead(204).end()).listen(0, '127.0.0.1')
await new Promise((resolve) => server.once('listening', resolve))
const port = server.address().port
const connect = (options) => new Promise((resolve, reject) => net.connect(options, function () { this.destroy(); resolve('connected') }).on('error', reject))
`
const refused = (where: string) => `ERR_LOOPBACK_ONLY loopback only: refused ${where}: tests keep their traffic on 127.0.0.0/8, ::1 and localhost`

describe('the loopback-only preload', () => {
  it('refuses connections and lookups elsewhere, naming the host, on stderr too, and fails the process', async () => {
    const { code, stdout, stderr } = await run(`${LOCAL_SERVER}
${outcome("connect({ host: '192.0.2.1', port: 80 })")}
${outcome("fetch('http://example.com/')")}
${outcome("fetch('https://192.0.2.1:8443/')")}
${outcome("dns.promises.lookup('example.com')")}
${outcome("new Promise((resolve, reject) => http.get('http://example.com/', resolve).on('error', reject))")}
${outcome("connect({ host: 'public.example.test', port, lookup: (host, options, done) => done(null, [{ address: '93.184.215.14', family: 4 }]) })")}
server.close()
`)
    expect(stdout.split('\n')).toEqual([
      refused('192.0.2.1:80'),
      refused('example.com'),
      refused('192.0.2.1:8443'),
      refused('example.com'),
      refused('example.com'),
      expect.stringMatching(new RegExp(`^ERR_LOOPBACK_ONLY loopback only: refused public\\.example\\.test \\(93\\.184\\.215\\.14\\):\\d+: `)),
      '',
    ])
    expect(stderr.split('\n').filter(Boolean)).toHaveLength(6)
    expect(stderr).toMatch(/^loopback only: refused 192\.0\.2\.1:80: tests keep their traffic on 127\.0\.0\.0\/8, ::1 and localhost \(pid \d+\)$/m)
    expect(code).toBe(1)
  })

  it('lets loopback through: 127.0.0.1, localhost, a name a test resolves to 127.0.0.1, a Unix socket', async () => {
    const { code, stdout, stderr } = await run(`${LOCAL_SERVER}
${outcome('fetch(`http://127.0.0.1:${port}/`).then((response) => response.status)')}
${outcome('fetch(`http://localhost:${port}/`).then((response) => response.status)')}
${outcome("connect({ host: 'rebind.example.test', port, lookup: (host, options, done) => done(null, [{ address: '127.0.0.1', family: 4 }]) })")}
const socket = http.createServer().listen((await import('node:path')).join((await import('node:os')).tmpdir(), 'cca-loopback-' + process.pid))
await new Promise((resolve) => socket.once('listening', resolve))
${outcome('connect({ path: socket.address() })')}
socket.close()
server.close()
`)
    expect(stdout).toBe('ok 204\nok 204\nok connected\nok connected\n')
    expect(stderr).toBe('')
    expect(code).toBe(0)
  })

  it('rides in NODE_OPTIONS into the processes a process starts, with the breached-password check off', async () => {
    const { code, stdout } = await run(`
import { spawnSync } from 'node:child_process'
console.log(process.env.PWNED_PASSWORDS)
const script = "await fetch('http://example.com/').catch((error) => console.log(error.cause.code))"
const child = spawnSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8' })
console.log(child.stdout.trim(), child.status)
`)
    expect(stdout).toBe('off\nERR_LOOPBACK_ONLY 1\n')
    expect(code).toBe(0)
  })
})
