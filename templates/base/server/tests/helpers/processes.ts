import { spawn } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import fs from 'node:fs'
import net from 'node:net'
import path from 'node:path'
import { pathToFileURL } from 'node:url'
import { secretNames } from '../../src/kernel/config/env.js'
import { features } from '../../src/features/index.js'
import { projectRoot } from '../../src/kernel/paths.js'
import { emptyDatabase, runDatabaseUrl, type TestDatabase } from './database.js'

export interface Finished {
  code: number | null
  stdout: string
  stderr: string
}

/**
 * Node itself with tsx as its loader, not tsx's command: that one runs the script in a child and
 * relays signals to it, and when the child's event loop is busy for 30 ms (a loaded CI machine)
 * it kills the child itself and exits 143, whatever the app's own SIGTERM handling did. The
 * process stays on loopback as the tests do (helpers/loopback-only.ts).
 */
const LOOPBACK_ONLY = pathToFileURL(path.join(projectRoot, 'server/tests/helpers/loopback-only-preload.mjs')).href
const node = (script: string, args: string[] = []) => [process.execPath, ['--import', 'tsx', '--import', LOOPBACK_ONLY, path.join(projectRoot, script), ...args]] as const

/**
 * Every variable the app reads, empty unless given: an empty value counts as unset and keeps the
 * developer's .env (which fills only variables that are absent) out of the test.
 */
const processEnv = (env: Record<string, string>) => ({
  PATH: process.env.PATH ?? '',
  HOME: process.env.HOME ?? '',
  NODE_ENV: 'test',
  PORT: '',
  BASE_URL: '',
  DATABASE_URL: '',
  REDIS_URL: '',
  REDIS_PREFIX: '',
  SMTP_URL: '',
  MAIL_TRANSPORT: '',
  MAIL_FROM: '',
  JWT_ACCESS_SECRET: '',
  JWT_REFRESH_SECRET: '',
  COOKIE_SECRET: '',
  COOKIE_SAMESITE: '',
  CORS_ORIGINS: '',
  TRUST_PROXY: '',
  WORKER: '',
  INSTANCE_ID: '',
  // No test reaches the internet: the breached-password tests point these at a local stand-in.
  PWNED_PASSWORDS: 'off',
  PWNED_PASSWORDS_URL: '',
  ...env,
})

/** Runs one of the app's entry points as `npm run …` would (through tsx's loader), with the given environment. */
export function runScript(script: string, args: string[], env: Record<string, string>, timeoutMs = 30_000): Promise<Finished> {
  return new Promise((resolve, reject) => {
    const child = spawn(...node(script, args), {
      cwd: projectRoot,
      env: processEnv(env),
    })
    let stdout = ''
    let stderr = ''
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()))
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()))
    const timer = setTimeout(() => {
      child.kill('SIGKILL')
      reject(new Error(`${script} did not finish within ${timeoutMs} ms\n${stdout}\n${stderr}`))
    }, timeoutMs)
    child.on('close', (code) => {
      clearTimeout(timer)
      resolve({ code, stdout, stderr })
    })
  })
}

/** Starts a long-running entry point; resolves once its output matches `ready`. */
export function startScript(script: string, env: Record<string, string>, ready: RegExp, timeoutMs = 30_000) {
  const child = spawn(...node(script), {
    cwd: projectRoot,
    env: processEnv(env),
  })
  let output = ''
  const started = new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${script} not ready within ${timeoutMs} ms:\n${output}`)), timeoutMs)
    const onData = (chunk: Buffer) => {
      output += chunk.toString()
      if (ready.test(output)) {
        clearTimeout(timer)
        resolve()
      }
    }
    child.stdout.on('data', onData)
    child.stderr.on('data', onData)
    child.on('close', (code) => {
      clearTimeout(timer)
      reject(new Error(`${script} exited with ${code}:\n${output}`))
    })
  })
  const stopped = new Promise<number | null>((resolve) => child.on('close', resolve))
  return {
    started,
    output: () => output,
    async stop(): Promise<number | null> {
      child.kill('SIGTERM')
      return stopped
    },
  }
}

/**
 * A port for a server a test starts (a child process, its own Redis, a proxy), which binds it a
 * moment later. Not one the kernel hands out (`listen(0)`): those come from the ephemeral range,
 * from which every outgoing connection of the parallel test files also takes its local port, so
 * one of them could take it in between ("Port … is already in use", seen in CI). Below that
 * range only another test's choice could collide: random, and checked free.
 */
export async function freePort(): Promise<number> {
  const low = 20_000
  const high = Math.max(ephemeralLow(), low + 1_000)
  for (;;) {
    const port = low + Math.floor(Math.random() * (high - low))
    if (await canListen(port)) return port
  }
}

function ephemeralLow(): number {
  try {
    return Number(fs.readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8').trim().split(/\s+/)[0]) || 32_768
  } catch {
    // Not Linux: the IANA range starts at 49152, and nearly every other system uses it.
    return 32_768
  }
}

function canListen(port: number): Promise<boolean> {
  const server = net.createServer()
  return new Promise((resolve) => {
    server.once('error', () => resolve(false))
    server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)))
  })
}

/** An empty database of the run's dialect, for tests of migrations and start-up. */
export const scratchDatabase = (): Promise<TestDatabase> => emptyDatabase(runDatabaseUrl(), `s${randomBytes(3).toString('hex')}`)

export const testSecrets = (): Record<string, string> => Object.fromEntries(secretNames(features).map((name) => [name, randomBytes(32).toString('hex')]))
