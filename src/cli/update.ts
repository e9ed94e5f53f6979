import { randomBytes } from 'node:crypto'
import { existsSync, readFileSync, statSync } from 'node:fs'
import { basename, join, resolve } from 'node:path'
import gt from 'semver/functions/gt.js'
import { packageName, runScript } from '../generate/context.js'
import { featureLayers } from '../generate/layers.js'
import { GENERATOR, RECORD_FILE, UNRECORDED } from '../generate/record.js'
import { renderProject } from '../generate/render.js'
import { type Answers, OPTIONS, type PackageManager, RECORDED_OPTIONS, answersToArgs, attributeName } from '../options.js'
import { applyPlan } from '../update/apply.js'
import { newEnvVariables } from '../update/env.js'
import { parseFeatures, withFeatures } from '../update/features.js'
import { type Change, planUpdate } from '../update/plan.js'
import { readRecord } from '../update/record.js'
import { readAppFile, refuseUnsafePaths } from '../update/paths.js'
import { completeAnswers, renderRelease } from '../update/releases.js'
import { Refusal } from '../update/refusal.js'
import { UsageError, answersFromFlags, brokenRule } from './answers.js'
import { workTreeState } from './git.js'
import { installDependencies, installedPackageManager } from './install.js'
import { toolStdout } from './output.js'
import { type Report, envEntries, newReport, printReport } from './report.js'
import { onPath } from './shell.js'

export interface UpdateFlags extends Record<string, unknown> {
  cwd?: string
  dryRun?: boolean
  json?: boolean
  from?: string
  install: boolean
  migrate: boolean
}

/** The flags that differ between two sets of answers: what this update changes. */
function changedFlags(before: Answers, after: Answers): string[] {
  return RECORDED_OPTIONS.filter((option) => JSON.stringify(before[option.key]) !== JSON.stringify(after[option.key])).flatMap((option) =>
    answersToArgs({ [option.key]: after[option.key] }),
  )
}

/**
 * A conflicted file: what happened to it and what the owner does about it. Only a text merge
 * leaves markers; the other conflicts keep one side whole, as git does, and say which.
 */
export function conflictAdvice(change: Change): { happened: string; todo: string } {
  if (change.contents === undefined) {
    return change.note?.startsWith('binary')
      ? { happened: change.note, todo: 'compare it with the new version by hand; git diff shows no markers in it' }
      : { happened: change.note ?? 'yours kept', todo: 'keep it as your own or delete it (no markers: nothing in it to resolve)' }
  }
  if (change.note?.startsWith('deleted here')) return { happened: change.note, todo: 'delete it again or keep the new version' }
  if (change.note) return { happened: change.note, todo: 'check those entries by hand (no markers)' }
  return { happened: 'changed here and by the new version in the same lines', todo: 'resolve the conflict markers (git diff shows them)' }
}

const line = (change: Change) => `${change.action.padEnd(8)} ${change.path}${change.note ? `  (${change.note})` : ''}`

function appName(dir: string): string {
  try {
    const name = (JSON.parse(readAppFile(dir, 'package.json')?.toString('utf8') ?? '') as { name?: unknown }).name
    if (typeof name === 'string' && name) return name
  } catch {
    // No readable package.json: the name the generator gave, from the folder.
  }
  return packageName(basename(dir))
}

async function migrate(pm: PackageManager, dir: string, env: Map<string, string>): Promise<string | null> {
  const { execa } = await import('execa')
  console.log(`\nRunning ${runScript(pm, 'db:migrate')}…\n`)
  const args = pm === 'yarn' ? ['db:migrate'] : ['run', 'db:migrate']
  // Variables the update made necessary reach the migration before the owner copies them into .env.
  const run = await execa(pm, args, { cwd: dir, stdio: ['inherit', toolStdout(), 'inherit'], env: { ...Object.fromEntries(env), ...process.env }, reject: false })
  return run.exitCode === 0 ? null : `${runScript(pm, 'db:migrate')} failed (exit code ${run.exitCode ?? run.signal}): fix it, then run it again`
}

/**
 * `update [options]` and `add <feature...>`: renders the recorded version with the recorded
 * answers and this version with the new ones, merges the difference into the app (src/update/),
 * then installs and migrates. Resolves to the exit code.
 */
export async function runUpdate(flags: UpdateFlags, featureNames: readonly string[], command: 'update' | 'add' = 'update'): Promise<number> {
  const report = newReport(command)
  const code = await update(flags, featureNames, report)
  report.ok = code === 0
  if (flags.json) printReport(report)
  return code
}

async function update(flags: UpdateFlags, featureNames: readonly string[], report: Report): Promise<number> {
  try {
    const fixed = OPTIONS.find((option) => option.fixed && flags[attributeName(option)] !== undefined)
    if (fixed) throw new UsageError(`${fixed.flag} cannot be changed by update: ${fixed.fixed}`, fixed.flag)
    const features = parseFeatures(featureNames)
    const given = answersFromFlags(flags)
    const dir = resolve(flags.cwd ?? '.')
    if (!existsSync(dir) || !statSync(dir).isDirectory()) throw new UsageError(`--cwd "${flags.cwd}" is invalid: no such folder`, '--cwd')
    report.directory = dir
    const record = readRecord(dir)
    const git = await workTreeState(dir)
    if (git === 'dirty') throw new Refusal(`${dir} has uncommitted changes: commit or stash first`)
    const recorded = record.generator.version
    if (gt(recorded, GENERATOR.version)) {
      throw new Refusal(`${GENERATOR.name} ${recorded} made this app, newer than this ${GENERATOR.version}: run ${GENERATOR.name}@${recorded} update`)
    }

    const env = { userAgent: process.env.npm_config_user_agent, gitAvailable: onPath('git') }
    const pm = given.pm ?? installedPackageManager(dir) ?? (OPTIONS.find((option) => option.key === 'pm')!.default(env) as PackageManager)
    const before = completeAnswers(record.answers, pm)
    const { pm: _pm, install: _install, git: _git, ...shaping } = given
    const answers = withFeatures({ ...before, ...shaping }, features)
    const broken = brokenRule(answers, new Set(Object.keys(shaping) as (keyof Answers)[]))
    if (broken) throw broken

    const name = appName(dir)
    const base = await renderRelease(recorded, record.answers, pm, name, flags.from)
    const target = renderProject(answers, name, { random: randomBytes })
    refuseUnsafePaths(dir, [...Object.keys(record.files), ...base.keys(), ...target.keys()].filter((path) => !UNRECORDED.has(path)))
    const read = (path: string) => readAppFile(dir, path)
    const label = `${GENERATOR.name}@${GENERATOR.version}`
    const changes = planUpdate({ read, recorded: record.files, base, target, label })
    report.answers = { ...Object.fromEntries(RECORDED_OPTIONS.map((option) => [option.key, answers[option.key]])), pm }
    report.files = changes.map(({ path, action, note }) => (note ? { path, action, note } : { path, action }))
    report.conflicts = changes.filter((change) => change.action === 'conflict').map((change) => ({ path: change.path, ...conflictAdvice(change) }))
    // .env is only read, for the names it sets, and may well be a link to a shared one.
    const envFile = join(dir, '.env')
    const newEnv = newEnvVariables(existsSync(envFile) ? readFileSync(envFile) : undefined, base.get('.env'), target.get('.env'))
    report.env = envEntries([...newEnv.keys()], target.get('.env'), target.get('.env.example'), false)
    const then = [...(flags.install ? [`${pm} install`] : []), ...(flags.migrate ? [runScript(pm, 'db:migrate')] : [])]

    const changed = changedFlags(before, answers)
    console.log(`${flags.dryRun ? 'Would update' : 'Updating'} ${dir}: ${GENERATOR.name} ${recorded} → ${GENERATOR.version}${changed.length ? `, ${changed.join(' ')}` : ''}`)
    if (changes.length === 0) {
      console.log('Nothing to change: the app already is what this version makes of these answers.')
      return 0
    }
    for (const change of changes) console.log(line(change))
    const conflicts = report.conflicts
    if (flags.dryRun) {
      console.log(`\nDry run: nothing was written${conflicts.length ? `; ${conflicts.length} file(s) would conflict` : ''}.`)
      report.next = [`${GENERATOR.name} ${report.command} ${process.argv.slice(3).filter((arg) => arg !== '--dry-run' && arg !== '--json').join(' ')}`.trim()]
      return conflicts.length ? 1 : 0
    }
    applyPlan(dir, changes)

    const removed = featureLayers(before).filter((layer) => !featureLayers(answers).includes(layer))
    if (removed.length) {
      const note = `Removed ${removed.join(', ')}: the code is gone, not the tables or their data, which stay in the database.`
      console.log(`\n${note}`)
      report.warnings.push(note)
    }
    if (newEnv.size) {
      console.log('\nAdd to .env (update never touches it):')
      for (const [variable, value] of newEnv) console.log(`  ${variable}=${value}`)
    }
    if (git === 'none') {
      const note = `${dir} is not in a git repository, so nothing keeps its previous state.`
      console.log(`\nNote: ${note}`)
      report.warnings.push(note)
    }
    if (conflicts.length) {
      // What to do about each file is in `conflicts`; `next` holds commands alone.
      report.next.push('git diff', ...then)
      const message = `conflicts in ${conflicts.map((conflict) => conflict.path).join(', ')}`
      report.error = { message }
      console.error(`\nerror: ${message}:`)
      for (const conflict of conflicts) console.error(`  ${conflict.path}: ${conflict.happened}; ${conflict.todo}`)
      console.error(then.length ? `then run ${then.join(' && ')}` : 'then commit the result')
      return 1
    }
    if (flags.install) {
      const failure = await installDependencies(pm, dir)
      if (failure) {
        report.next.push(...then)
        throw new Refusal(`${failure}; the files are updated, to retry: ${pm} install`)
      }
    }
    if (flags.migrate) {
      const failure = await migrate(pm, dir, newEnv)
      if (failure) {
        report.next.push(runScript(pm, 'db:migrate'))
        throw new Refusal(failure)
      }
    }
    report.next.push(...(flags.install ? [] : [`${pm} install`]), ...(flags.migrate ? [] : [runScript(pm, 'db:migrate')]), 'git diff', 'git commit -am "Update create-cookie-auth-app"')
    console.log(`\nDone. ${RECORD_FILE} records the new answers; review the changes (git diff) and commit them.`)
    return 0
  } catch (error) {
    if (error instanceof UsageError || error instanceof Refusal) {
      console.error(`error: ${error.message}`)
      report.error = error instanceof UsageError && error.flag ? { message: error.message, flag: error.flag } : { message: error.message }
      return 1
    }
    throw error
  }
}
