/** The environment of every process the generator's tests, benchmarks and scripts start for a generated app. */
import { existsSync, readdirSync } from 'node:fs'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'

/** Refuses any traffic but loopback, with an error naming the host (loopback-only.mjs). */
export const LOOPBACK_ONLY = new URL('./loopback-only.mjs', import.meta.url)

const PRELOAD = `--import=${LOOPBACK_ONLY.href}`

/**
 * `base` for a generated app's processes: its server, migrations, user:create, seeds, its test
 * suites and what they start in turn. They stay on this machine: the breached-password check
 * (on by default, asking api.pwnedpasswords.com) is off, the package managers that run their
 * scripts check for no update of themselves, and the loopback-only preload rides in NODE_OPTIONS
 * into every Node process below, so a step that reaches out fails saying where. Not for
 * installs, which the registry serves.
 */
export function appEnv(base: NodeJS.ProcessEnv = process.env): NodeJS.ProcessEnv {
  const options = base.NODE_OPTIONS?.split(' ').includes(PRELOAD) ? base.NODE_OPTIONS : [base.NODE_OPTIONS, PRELOAD].filter(Boolean).join(' ')
  return {
    ...base,
    PWNED_PASSWORDS: 'off',
    npm_config_update_notifier: 'false',
    YARN_ENABLE_TELEMETRY: '0',
    NODE_OPTIONS: options,
  }
}

/**
 * What the app's layers set for runs that drive its built server through flows not theirs: the
 * variables of its `e2e/support/env/<layer>.ts`, which its browser tests read too (the CAPTCHA
 * layer turns its challenge off there, or the scale-out step's logins would meet one).
 */
export async function layerRunEnv(dir: string): Promise<Record<string, string>> {
  const folder = join(dir, 'e2e', 'support', 'env')
  if (!existsSync(folder)) return {}
  const files = readdirSync(folder).filter((name) => name.endsWith('.ts')).sort()
  const modules = await Promise.all(files.map(async (name) => (await import(pathToFileURL(join(folder, name)).href)) as { env: Record<string, string> }))
  return Object.assign({}, ...modules.map((module) => module.env))
}
