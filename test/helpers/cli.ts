import { spawn } from 'node:child_process'
import { mkdtempSync, readdirSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'

export const BIN = fileURLToPath(new URL('../../bin/create-cookie-auth-app.js', import.meta.url))

export interface RunResult {
  code: number | null
  stdout: string
  stderr: string
}

/** The environment of a user's shell: no CI flag, no npm user agent unless a test sets one. */
export function userEnv(extra: Record<string, string | undefined> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, ...extra }
  for (const key of ['CI', 'npm_config_user_agent', 'npm_lifecycle_event']) if (!(key in extra)) delete env[key]
  return env
}

/**
 * Spawns the built CLI with stdin a pipe (never a TTY) and closes stdin at once, or, with
 * `stdinOpen`, leaves it open as a pipeline whose writer never writes would.
 */
export function runCli(args: string[], options: { cwd?: string; env?: NodeJS.ProcessEnv; stdinOpen?: boolean } = {}): Promise<RunResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, ...args], {
      cwd: options.cwd,
      env: options.env ?? userEnv(),
      stdio: ['pipe', 'pipe', 'pipe'],
    })
    let stdout = ''
    let stderr = ''
    child.stdout.on('data', (chunk) => (stdout += chunk))
    child.stderr.on('data', (chunk) => (stderr += chunk))
    if (!options.stdinOpen) child.stdin.end()
    const timer = setTimeout(() => {
      child.kill('SIGKILL')
      reject(new Error(`CLI did not finish within 20 s (it may be waiting for input)\n${stdout}\n${stderr}`))
    }, 20000)
    child.on('error', reject)
    child.on('close', (code) => {
      clearTimeout(timer)
      child.stdin.destroy()
      resolve({ code, stdout, stderr })
    })
  })
}

export function tempDir(prefix = 'cca-test-'): { path: string; remove: () => void } {
  const path = mkdtempSync(join(tmpdir(), prefix))
  return { path, remove: () => rmSync(path, { recursive: true, force: true }) }
}

/** Every file below `dir`, as sorted relative paths. */
export function listTree(dir: string, relative = ''): string[] {
  return readdirSync(join(dir, relative), { withFileTypes: true })
    .flatMap((entry) => {
      const path = relative ? `${relative}/${entry.name}` : entry.name
      return entry.isDirectory() ? [`${path}/`, ...listTree(dir, path)] : [path]
    })
    .sort()
}
