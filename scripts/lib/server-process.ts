/** A built generated app's server as the benchmarks start, sign in to and stop it. */
import { spawn, type ChildProcess } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { appEnv } from './app-env.js'

const started = new Set<ChildProcess>()

/** The server as `npm start` runs it: node with the start script's flags (the heap size). */
export function startArgs(dir: string): string[] {
  const start = (JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as { scripts: { start: string } }).scripts.start
  const [node, ...args] = start.split(/\s+/)
  if (node !== 'node') throw new Error(`the benchmarks run the start script's node command; it says: ${start}`)
  return args
}

/** Pinned to `cpu` through taskset when given; resolves once `probe` answers 2xx. */
export async function startServer(args: string[], childEnv: NodeJS.ProcessEnv, cwd: string, port: number, probe: string, cpu?: number) {
  const [command, argv] = cpu === undefined ? ['node', args] : ['taskset', ['-c', String(cpu), 'node', ...args]]
  const child = spawn(command, argv, { cwd, env: appEnv(childEnv), stdio: ['ignore', 'ignore', 'inherit'] })
  started.add(child)
  const deadline = Date.now() + 30_000
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`${args.join(' ')} exited with ${child.exitCode}`)
    try {
      if ((await fetch(`http://127.0.0.1:${port}${probe}`)).ok) return child
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 200))
  }
  throw new Error(`${args.join(' ')} did not answer ${probe} within 30 s`)
}

export async function stop(child: ChildProcess) {
  if (child.exitCode !== null) return
  const exited = new Promise((resolve) => child.once('exit', resolve))
  child.kill('SIGTERM')
  await exited
}

/** For `finally`: whatever is still running after an error. */
export function killServers() {
  for (const child of started) if (child.exitCode === null) child.kill('SIGKILL')
}

/** Signs in and returns the cookies the answer set, by name. */
export async function login(base: string, email: string, password: string) {
  const res = await fetch(`${base}/api/auth/login`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ email, password }),
  })
  if (res.status !== 200) throw new Error(`login as ${email}: ${res.status} ${await res.text()}`)
  const cookies: Record<string, string> = {}
  for (const line of res.headers.getSetCookie()) {
    const [pair] = line.split(';')
    const at = pair!.indexOf('=')
    cookies[pair!.slice(0, at)] = pair!.slice(at + 1)
  }
  return { cookies }
}

/**
 * An API key of the signed-in user (`cookie`: the access cookie) for `scopes`, made as the
 * settings page makes one: the session confirmed with the password (step-up), then the POST.
 */
export async function createApiKey(base: string, cookie: string, password: string, scopes: string[] = ['read']): Promise<string> {
  const send = async (path: string, body: object, status: number) => {
    const res = await fetch(`${base}${path}`, { method: 'POST', headers: { Cookie: cookie, 'Content-Type': 'application/json' }, body: JSON.stringify(body) })
    if (res.status !== status) throw new Error(`POST ${path}: ${res.status} ${await res.text()}`)
    return res.json() as Promise<Record<string, unknown>>
  }
  await send('/api/account/confirm', { password }, 200)
  const { key } = await send('/api/account/api-keys', { name: 'bench', scopes }, 201)
  if (typeof key !== 'string') throw new Error(`POST /api/account/api-keys answered no key`)
  return key
}
