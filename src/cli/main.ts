import { randomBytes } from 'node:crypto'
import { resolve } from 'node:path'
import { CommanderError } from 'commander'
import { generate } from '../generate/index.js'
import { type Answers, type Environment } from '../options.js'
import { UsageError, answersFromFlags, brokenRule, withDefaults } from './answers.js'
import { initGit } from './git.js'
import { installDependencies } from './install.js'
import { nextSteps } from './next-steps.js'
import { buildProgram } from './program.js'
import { onPath, shellQuote } from './shell.js'
import { prepareTarget, targetState } from './target.js'
import type { UpdateFlags } from './update.js'

const DEFAULT_DIRECTORY = 'cookie-auth-app'

interface Flags extends Record<string, unknown> {
  force?: boolean
  yes?: boolean
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

function fail(message: string): number {
  console.error(`error: ${message}`)
  return 1
}

/** Runs the CLI; resolves to the process exit code. */
export async function main(argv: string[]): Promise<number> {
  const timings = process.env.CCA_TIMINGS ? phaseTimings() : undefined
  const program = buildProgram()
  try {
    program.parse(argv)
  } catch (error) {
    // commander has printed the help, the version or its own one-line error already.
    if (error instanceof CommanderError) return error.exitCode
    throw error
  }
  const command = program.commands.find((subcommand) => subcommand.name() === program.args[0])
  if (command) {
    // Options are positional: one before the command is the creating command's, which would go unused.
    const early = argv.slice(2, argv.indexOf(command.name())).find((arg) => arg.startsWith('-'))
    if (early) return fail(`${early} is invalid before ${command.name()}: options go after the command (create-cookie-auth-app ${command.name()} [options])`)
    // Loaded only for `update` and `add`, so that creating an app starts as fast as before.
    return (await import('./update.js')).runUpdate(command.opts<UpdateFlags>(), command.args)
  }
  const flags = program.opts<Flags>()
  const env: Environment = { userAgent: process.env.npm_config_user_agent, gitAvailable: onPath('git') }
  const interactive = !flags.yes && process.stdin.isTTY === true && !process.env.CI
  // Prompts are loaded only when a person is there to answer them.
  const ask = interactive ? await import('./prompts.js') : undefined

  try {
    const given = answersFromFlags(flags)
    const chosen = new Set(Object.keys(given) as (keyof Answers)[])
    const conflict = brokenRule(ask ? given : withDefaults(given, env), chosen)
    if (conflict) throw conflict

    const directory = program.args[0] ?? (ask ? await ask.askDirectory(DEFAULT_DIRECTORY) : DEFAULT_DIRECTORY)
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
    prepareTarget(targetDir)
    const files = generate(answers, targetDir, { random: randomBytes, mark: timings?.mark })
    timings?.print()
    console.log(`\nScaffolded ${files.length} files in ${targetDir}`)

    if (answers.install) {
      const failure = await installDependencies(answers.pm, targetDir)
      if (failure) {
        return fail(`${failure}. The project is in ${targetDir}; to retry: cd ${shellQuote(targetDir)} && ${answers.pm} install`)
      }
    }
    if (answers.git) {
      const note = env.gitAvailable ? await initGit(targetDir) : 'git is not on PATH; no repository was created'
      if (note) console.log(`Note: ${note}`)
    }
    console.log(nextSteps(targetDir, directory, answers, answers.install))
    return 0
  } catch (error) {
    if (error instanceof UsageError) return fail(error.message)
    if (ask && error instanceof ask.Cancelled) {
      console.error('Cancelled')
      return 130
    }
    throw error
  }
}
