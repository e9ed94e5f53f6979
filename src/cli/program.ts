import { readFileSync } from 'node:fs'
import { Command } from 'commander'
import { formatDuration } from '../duration.js'
import { OPTIONS, isBoolean } from '../options.js'

const VERSION = (JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string })
  .version

function defaultText(value: string | number | boolean | readonly string[]): string {
  if (typeof value === 'boolean') return value ? 'yes' : 'no'
  if (Array.isArray(value)) return value.length ? value.join(',') : 'none'
  return typeof value === 'number' ? formatDuration(value) : String(value)
}

/** The commander program, built from the options table. Values stay raw text here. */
export function buildProgram(): Command {
  const program = new Command('create-cookie-auth-app')
    .usage('[directory] [options]')
    .description('Create an Express + Vue 3 app with cookie-based JWT authentication.')
    .argument('[directory]', 'where to create the app (default: cookie-auth-app)')
    .version(VERSION, '-V, --version', 'print the version')
    .helpOption('-h, --help', 'show this help')
    .exitOverride()

  const helpEnv = { userAgent: undefined, gitAvailable: true }
  for (const option of OPTIONS) {
    const fallback = option.defaultHelp ?? defaultText(option.default(helpEnv))
    const description = `${option.description} (default: ${fallback})`
    if (isBoolean(option)) {
      program.option(option.flag, description)
      program.option(`--no-${option.flag.slice(2)}`, `do not ${option.description}`)
    } else {
      program.option(`${option.flag} ${option.valueName}`, description)
    }
  }
  return program
    .option('--force', 'replace the contents of a non-empty directory (.git is kept)')
    .option('-y, --yes', 'never prompt; use the defaults for everything not given')
    .addHelpText(
      'after',
      '\nDurations are whole seconds (900) or a number with s, m, h or d (15m, 30d);' +
        '\naccess < refresh <= remember. Without a TTY, with --yes or with CI set, nothing is asked.',
    )
}
