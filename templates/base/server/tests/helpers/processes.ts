import { spawn } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import fs from 'node:fs'
import net from 'node:net'
import os from 'node:os'
import path from 'node:path'
import { inject } from 'vitest'
import { databaseServer, dialectOf } from '../../src/db/database.js'
import { projectRoot } from '../../src/paths.js'

export interface Finished {
  code: number | null
  stdout: string
  stderr: string
}

const tsx = path.join(projectRoot, 'node_modules', '.bin', 'tsx')

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
  MAIL_FROM: '',
  JWT_ACCESS_SECRET: '',
  JWT_REFRESH_SECRET: '',
  COOKIE_SECRET: '',
  COOKIE_SAMESITE: '',
  CORS_ORIGINS: '',
  TRUST_PROXY: '',
  WORKER: '',
  INSTANCE_ID: '',
  ...env,
})

/** Runs one of the app's entry points as `npm run …` would (through tsx), with the given environment. */
export function runScript(script: string, args: string[], env: Record<string, string>, timeoutMs = 30_000): Promise<Finished> {
  return new Promise((resolve, reject) => {
    const child = spawn(tsx, [path.join(projectRoot, script), ...args], {
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
  const child = spawn(tsx, [path.join(projectRoot, script)], {
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

export async function freePort(): Promise<number> {
  const server = net.createServer()
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as net.AddressInfo
  await new Promise<void>((resolve) => server.close(() => resolve()))
  return port
}

/** An empty database of the run's dialect, for tests of migrations and start-up. */
export async function scratchDatabase(): Promise<{ url: string; drop(): Promise<void> }> {
  const runUrl = inject('databaseUrl')
  if (dialectOf(runUrl) === 'sqlite') {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'app-scratch-'))
    return { url: `sqlite:${path.join(dir, 'scratch.sqlite')}`, drop: async () => fs.rmSync(dir, { recursive: true, force: true }) }
  }
  const server = databaseServer(runUrl)
  const name = `${server.name.slice(0, 39)}_s${randomBytes(3).toString('hex')}`
  await server.create(name)
  return {
    url: server.urlOf(name),
    async drop() {
      await server.drop(name)
      await server.close()
    },
  }
}

export const testSecrets = () => ({
  JWT_ACCESS_SECRET: randomBytes(32).toString('hex'),
  JWT_REFRESH_SECRET: randomBytes(32).toString('hex'),
  COOKIE_SECRET: randomBytes(32).toString('hex'),
})
