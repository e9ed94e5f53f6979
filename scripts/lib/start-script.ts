/** An app's start script as a user runs it (`npm start`, `yarn start`), for the run's probes. */
import { execa, type Options } from 'execa'
import { appEnv } from './app-env.js'

/**
 * Runs `line` with PORT and BASE_URL set for `port` until `/api/health` answers, the script
 * exits or 30 s pass, hands that answer (or undefined) to `use`, then stops the script. It runs
 * in its own process group: not every manager passes SIGTERM on to the server it started.
 * Resolves to what `use` returned and the script's output when `options` collect it.
 */
export async function whileStarted<T>(line: string, port: number, options: Options, use: (health: Response | undefined, base: string) => Promise<T>): Promise<{ result: T; output: string | undefined }> {
  const base = `http://localhost:${port}`
  const [command, ...args] = line.split(' ')
  const server = execa(command!, args, { ...options, env: { ...appEnv(options.env), PORT: String(port), BASE_URL: base }, reject: false, detached: true })
  let result: T
  try {
    const deadline = Date.now() + 30_000
    let health: Response | undefined
    while (!health && Date.now() < deadline && server.exitCode === null) {
      health = await fetch(`http://127.0.0.1:${port}/api/health`).catch(() => undefined)
      if (!health) await new Promise((resolve) => setTimeout(resolve, 250))
    }
    result = await use(health, base)
  } finally {
    // The server may have exited on its own (a port taken meanwhile): nothing left to stop then.
    if (server.exitCode === null) {
      try {
        process.kill(-server.pid!, 'SIGTERM')
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'ESRCH') throw error
      }
    }
  }
  const { all } = await server
  return { result, output: typeof all === 'string' ? all : undefined }
}
