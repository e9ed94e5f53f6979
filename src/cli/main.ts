import { randomBytes } from 'node:crypto'
import { basename, resolve } from 'node:path'
import { CommanderError } from 'commander'
import { generate, packageName, renderProject } from '../generate/index.js'
import { type Answers, type Environment, OPTIONS } from '../options.js'
import { UsageError, answersFromFlags, brokenRule, withDefaults } from './answers.js'
import { initGit } from './git.js'
import { installDependencies } from './install.js'
import { nextCommands, nextSteps } from './next-steps.js'
import { endQuietlyOnClosedPipe, useMachineOutput } from './output.js'
import { type Report, envEntries, newReport, printReport } from './report.js'
import { buildProgram } from './program.js'
import { onPath, shellQuote } from './shell.js'
import { prepareTarget, targetState } from './target.js'
import type { UpdateFlags } from './update.js'
import { envVariables } from '../update/env.js'

const DEFAULT_DIRECTORY = 'cookie-auth-app'

interface Flags extends Record<string, unknown> {
  force?: boolean
  yes?: boolean
  json?: boolean
  dryRun?: boolean
}

const SUBCOMMANDS = ['update', 'add', 'options']

/** Which command `argv` runs, read before commander parses it, so that its own errors can be reported too. */
function commandOf(argv: string[]): 'create' | 'update' | 'add' | 'options' {
  const first = argv.slice(2).find((arg) => !arg.startsWith('-'))
  return first && SUBCOMMANDS.includes(first) ? (first as 'update' | 'add' | 'options') : 'create'
}

/** A commander error's message as one line, and the flag it names, if any. */
function commanderFailure(error: CommanderError): { message: string; flag?: string } {
  const message = error.message.replace(/^error: /, '')
  const flag = /'(--?[A-Za-z][\w-]*)/.exec(message)?.[1]
  return flag ? { message, flag } : { message }
}

/**
 * With CCA_TIMINGS set, one line on stderr: milliseconds from the process's start to `main`
 * (Node's start-up and loading the CLI), then each phase of generating. `bench:generate` reads it.
 */
function phaseTimings() {
  const phases: [string, number][] = [['start-up', performance.now()]]
  return {
    mark: (phase: string) => phases.push([phase, performance.now()]),
    print: () => {
      const spans = phases.map(([name, at], index) => `${name} ${(at - (phases[index - 1]?.[1] ?? 0)).toFixed(2)}`)
      console.error(`timings: ${spans.join(' ')}`)
    },
  }
}

function fail(message: string, report?: Report, flag?: string): number {
  console.error(`error: ${message}`)
  if (report) report.error = flag ? { message, flag } : { message }
  return 1
}

/** Runs the CLI; resolves to the process exit code. */
export async function main(argv: string[]): Promise<number> {
  endQuietlyOnClosedPipe()
  const timings = process.env.CCA_TIMINGS ? phaseTimings() : undefined
  const which = commandOf(argv)
  const json = argv.slice(2).includes('--json')
  if (json) useMachineOutput()
  const program = buildProgram()
  try {
    program.parse(argv)
  } catch (error) {
    // commander has printed the help, the version or its own one-line error already (on stderr).
    if (!(error instanceof CommanderError)) throw error
    if (json && error.exitCode !== 0 && which !== 'options') {
      printReport({ ...newReport(which), error: commanderFailure(error) })
    }
    return error.exitCode
  }
  const command = program.commands.find((subcommand) => subcommand.name() === program.args[0])
  if (command) {
    // Options are positional: one before the command is the creating command's, which would go unused.
    const early = argv.slice(2, argv.indexOf(command.name())).find((arg) => arg.startsWith('-'))
    if (early) {
      const report = command.name() === 'options' ? undefined : newReport(command.name() as 'update' | 'add')
      const code = fail(`${early} is invalid before ${command.name()}: options go after the command (create-cookie-auth-app ${command.name()} [options])`, report, early)
      if (json && report) printReport(report)
      return code
    }
    if (command.name() === 'options') {
      const table = await import('./options-table.js')
      process.stdout.write(command.opts().json ? `${JSON.stringify(table.optionsDocument(), null, 2)}\n` : `${table.optionsText()}\n`)
      return 0
    }
    // Loaded only for `update` and `add`, so that creating an app starts as fast as before.
    return (await import('./update.js')).runUpdate(command.opts<UpdateFlags>(), command.args, command.name() as 'update' | 'add')
  }
  const report = newReport('create')
  const code = await create(program.args[0], program.opts<Flags>(), report, timings)
  report.ok = code === 0
  if (json) printReport(report)
  return code
}

async function create(directoryArg: string | undefined, flags: Flags, report: Report, timings: ReturnType<typeof phaseTimings> | undefined): Promise<number> {
  const env: Environment = { userAgent: process.env.npm_config_user_agent, gitAvailable: onPath('git') }
  // A JSON reader is a program: a prompt would be unanswered text in its document.
  const interactive = !flags.yes && !flags.json && process.stdin.isTTY === true && !process.env.CI
  // Prompts are loaded only when a person is there to answer them.
  const ask = interactive ? await import('./prompts.js') : undefined

  try {
    const given = answersFromFlags(flags)
    const chosen = new Set(Object.keys(given) as (keyof Answers)[])
    const conflict = brokenRule(ask ? given : withDefaults(given, env), chosen)
    if (conflict) throw conflict

    const directory = directoryArg ?? (ask ? await ask.askDirectory(DEFAULT_DIRECTORY) : DEFAULT_DIRECTORY)
    const targetDir = resolve(directory)
    const state = targetState(targetDir)
    if (state === 'not-a-directory') throw new UsageError(`directory "${directory}" is invalid: it is a file, not a folder`)
    if (state === 'not-empty' && !flags.force) {
      if (!ask) throw new UsageError(`directory "${directory}" is not empty: pass --force to replace its contents (.git is kept)`)
      if (!(await ask.confirmReplace(directory))) {
        console.error(`Cancelled: "${directory}" was left untouched.`)
        return 1
      }
    }

    const answers = withDefaults(ask ? await ask.askMissing(given, env) : given, env)
    // A flag that needs an answer the prompts gave is checked only now (`--sso`, then "no" to teams).
    const unmet = ask ? brokenRule(answers, chosen) : null
    if (unmet) throw unmet
    report.directory = targetDir
    report.answers = Object.fromEntries(OPTIONS.map((option) => [option.key, answers[option.key]])) as Partial<Answers>
    // Rendered once, for the files and the .env entries whether written or not.
    const rendered = renderProject(answers, packageName(basename(targetDir)), { random: randomBytes })
    timings?.mark('render')
    report.files = [...rendered.keys()].map((path) => ({ path, action: 'created' as const }))
    const envNames = [...envVariables(rendered.get('.env')).keys()]
    report.env = envEntries(envNames, rendered.get('.env'), rendered.get('.env.example'), true)
    if (state === 'not-empty') report.warnings.push(`${targetDir} was not empty: its contents ${flags.dryRun ? 'would be' : 'were'} replaced (.git kept)`)
    if (flags.dryRun) {
      console.log(`Dry run: would write ${rendered.size} files in ${targetDir}${state === 'not-empty' ? ', replacing its contents (.git kept)' : ''}; nothing was written.`)
      for (const path of rendered.keys()) console.log(`  ${path}`)
      report.next = nextCommands(targetDir, answers, answers.install)
      return 0
    }
    prepareTarget(targetDir)
    const files = generate(answers, targetDir, { random: randomBytes, mark: timings?.mark }, rendered)
    timings?.print()
    console.log(`\nScaffolded ${files.length} files in ${targetDir}`)

    if (answers.install) {
      const failure = await installDependencies(answers.pm, targetDir)
      if (failure) {
        report.next = nextCommands(targetDir, answers, false)
        return fail(`${failure}. The project is in ${targetDir}; to retry: cd ${shellQuote(targetDir)} && ${answers.pm} install`, report)
      }
    }
    if (answers.git) {
      const note = env.gitAvailable ? await initGit(targetDir) : 'git is not on PATH; no repository was created'
      if (note) {
        console.log(`Note: ${note}`)
        report.warnings.push(note)
      }
    }
    console.log(nextSteps(targetDir, directory, answers, answers.install))
    report.next = nextCommands(targetDir, answers, answers.install)
    return 0
  } catch (error) {
    if (error instanceof UsageError) return fail(error.message, report, error.flag)
    if (ask && error instanceof ask.Cancelled) {
      console.error('Cancelled')
      return 130
    }
    throw error
  }
}
