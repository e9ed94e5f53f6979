import { Command } from 'commander'
import { formatDuration } from '../duration.js'
import { GENERATOR } from '../generate/record.js'
import { FEATURES, OPTIONS, type OptionRow, isBoolean } from '../options.js'

function defaultText(value: string | number | boolean | readonly string[]): string {
  if (typeof value === 'boolean') return value ? 'yes' : 'no'
  if (Array.isArray(value)) return value.length ? value.join(',') : 'none'
  return typeof value === 'number' ? formatDuration(value) : String(value)
}

/** The environment `--help` states the defaults for. */
const HELP_ENV = { userAgent: undefined, gitAvailable: true }

/** A row's default as `--help` states it: `defaultHelp`, else `15m`, `yes`/`no`, `github,oidc`/`none`, the text. */
export function statedDefault(option: OptionRow): string {
  return option.defaultHelp ?? defaultText(option.default(HELP_ENV))
}

/**
 * The creating command's flags that are no answer, so no row of the options table: what `--help`
 * says of each, and README.md's options table (`asked`, `readme`, `default`; npm run readme:options).
 */
export const RUN_FLAGS: readonly { flags: string; description: string; asked: string; readme: string; default: string }[] = [
  {
    flags: '--json',
    description: 'print one JSON document on stdout (schema/result.schema.json); progress goes to stderr',
    asked: '— (machine output)',
    readme: 'stdout carries one JSON document (files, `.env` variables, next steps, error); see "For agents and scripts"',
    default: 'off',
  },
  {
    flags: '--dry-run',
    description: 'print the files it would write; write nothing',
    asked: '—',
    readme: 'prints the files it would write and writes nothing',
    default: 'off',
  },
  {
    flags: '--force',
    description: 'replace the contents of a non-empty directory (.git is kept)',
    asked: '(a non-empty target asks; default No)',
    readme: 'replaces the contents of a non-empty directory; `.git` is kept',
    default: 'off',
  },
  {
    flags: '-y, --yes',
    description: 'never prompt; use the defaults for everything not given',
    asked: 'never prompt',
    readme: 'uses the defaults for everything not given',
    default: 'off',
  },
]

/** A yes/no row's `--no-` line: its own sentence, which every such row has (test/options.test.ts). */
function negatedHelp(option: OptionRow): string {
  if (!option.negated) throw new Error(`${option.flag}: a yes/no row needs \`negated\`, its --no- line in --help`)
  return option.negated
}

function addAnswerOptions(command: Command, options: readonly OptionRow[], describe: (option: OptionRow) => string): void {
  for (const option of options) {
    const description = describe(option)
    if (isBoolean(option)) {
      command.option(option.flag, description)
      command.option(`--no-${option.flag.slice(2)}`, negatedHelp(option))
    } else {
      command.option(`${option.flag} ${option.valueName}`, description)
    }
  }
}

const PM = OPTIONS.find((option) => option.key === 'pm')!

/** What `update` and `add` share: where the app is, and what happens around the merge. */
function addUpdateRunOptions(command: Command): Command {
  return command
    .option('--cwd <dir>', "the app's folder (default: the current folder)")
    .option('--dry-run', 'print what would change; write nothing')
    .option('--json', 'print one JSON document on stdout (schema/result.schema.json); progress goes to stderr')
    .option('--from <tarball|directory>', 'the package of the release that made the app, when it is not this one (default: from the npm registry)')
    .option(`${PM.flag} ${PM.valueName}`, "package manager (default: the one the app's lockfile names, else the one that launched this command, else npm)")
    .option('--no-install', 'do not install dependencies after updating')
    .option('--no-migrate', 'do not run db:migrate after updating')
}

/**
 * The commander program, built from the options table. Values stay raw text here. Options are
 * positional, so `update --two-factor` gives the flag to `update`, not to the creating command.
 */
export function buildProgram(): Command {
  const program = new Command('create-cookie-auth-app')
    .usage('[directory] [options]')
    .description('Create an Express + Vue 3 app with cookie-based JWT authentication.')
    .argument('[directory]', 'where to create the app (default: cookie-auth-app)')
    .version(GENERATOR.version, '-V, --version', 'print the version')
    .helpOption('-h, --help', 'show this help')
    .helpCommand(false)
    .enablePositionalOptions()
    .exitOverride()
    // Which command ran is read from the parsed program (main.ts); the actions only let commander dispatch.
    .action(() => undefined)

  addAnswerOptions(program, OPTIONS, (option) => `${option.description} (default: ${statedDefault(option)})`)
  for (const flag of RUN_FLAGS) program.option(flag.flags, flag.description)
  program
    .addHelpText(
      'after',
      '\nDurations are whole seconds (900) or a number with s, m, h or d (15m, 30d);' +
        '\naccess < refresh <= remember. Without a TTY, with --yes or with CI set, nothing is asked.',
    )

  const update = program
    .command('update')
    .description('merge this version, or changed answers, into an app made by create-cookie-auth-app (its cookie-auth.json)')
    .action(() => undefined)
  addAnswerOptions(
    update,
    OPTIONS.filter((option) => !option.setup),
    (option) => (option.fixed ? `refused: ${option.fixed}` : `${option.description} (default: as recorded)`),
  )
  addUpdateRunOptions(update).addHelpText('after', UPDATE_HELP)

  const add = program
    .command('add')
    .description('update with these features on')
    .argument('<feature...>', FEATURES.map((feature) => feature.name).join(', '))
    .action(() => undefined)
  addUpdateRunOptions(add).addHelpText('after', UPDATE_HELP)

  program
    .command('options')
    .description('print the options table: each flag, its values, default, prompt and what it generates')
    .option('--json', 'as one JSON document (schema/options.schema.json)')
    .action(() => undefined)
  return program
}

const UPDATE_HELP =
  '\nFiles you never edited are replaced, edited ones merged; a clash leaves git-style conflict markers' +
  '\n(exit code 1). Files you added are never touched, nor is .env. Removing a feature removes its code,' +
  '\nnot its tables or data. Commit or stash your changes first.'
