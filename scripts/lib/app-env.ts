/** The environment of every process the generator's tests, benchmarks and scripts start for a generated app. */

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
