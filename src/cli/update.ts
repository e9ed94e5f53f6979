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
import { onPath } from './shell.js'

export interface UpdateFlags extends Record<string, unknown> {
  cwd?: string
  dryRun?: boolean
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
  const run = await execa(pm, args, { cwd: dir, stdio: 'inherit', env: { ...Object.fromEntries(env), ...process.env }, reject: false })
  return run.exitCode === 0 ? null : `${runScript(pm, 'db:migrate')} failed (exit code ${run.exitCode ?? run.signal}): fix it, then run it again`
}

/**
 * `update [options]` and `add <feature...>`: renders the recorded version with the recorded
 * answers and this version with the new ones, merges the difference into the app (src/update/),
 * then installs and migrates. Resolves to the exit code.
 */
export async function runUpdate(flags: UpdateFlags, featureNames: readonly string[]): Promise<number> {
  try {
    const fixed = OPTIONS.find((option) => option.fixed && flags[attributeName(option)] !== undefined)
    if (fixed) throw new UsageError(`${fixed.flag} cannot be changed by update: ${fixed.fixed}`)
    const features = parseFeatures(featureNames)
    const given = answersFromFlags(flags)
    const dir = resolve(flags.cwd ?? '.')
    if (!existsSync(dir) || !statSync(dir).isDirectory()) throw new UsageError(`--cwd "${flags.cwd}" is invalid: no such folder`)
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

    const changed = changedFlags(before, answers)
    console.log(`${flags.dryRun ? 'Would update' : 'Updating'} ${dir}: ${GENERATOR.name} ${recorded} → ${GENERATOR.version}${changed.length ? `, ${changed.join(' ')}` : ''}`)
    if (changes.length === 0) {
      console.log('Nothing to change: the app already is what this version makes of these answers.')
      return 0
    }
    for (const change of changes) console.log(line(change))
    const conflicts = changes.filter((change) => change.action === 'conflict').map((change) => change.path)
    if (flags.dryRun) {
      console.log(`\nDry run: nothing was written${conflicts.length ? `; ${conflicts.length} file(s) would conflict` : ''}.`)
      return conflicts.length ? 1 : 0
    }
    applyPlan(dir, changes)

    const removed = featureLayers(before).filter((layer) => !featureLayers(answers).includes(layer))
    if (removed.length) {
      console.log(`\nRemoved ${removed.join(', ')}: the code is gone, not the tables or their data, which stay in the database.`)
    }
    // .env is only read, for the names it sets, and may well be a link to a shared one.
    const envFile = join(dir, '.env')
    const newEnv = newEnvVariables(existsSync(envFile) ? readFileSync(envFile) : undefined, base.get('.env'), target.get('.env'))
    if (newEnv.size) {
      console.log('\nAdd to .env (update never touches it):')
      for (const [variable, value] of newEnv) console.log(`  ${variable}=${value}`)
    }
    if (git === 'none') console.log(`\nNote: ${dir} is not in a git repository, so nothing keeps its previous state.`)
    if (conflicts.length) {
      const then = [...(flags.install ? [`${pm} install`] : []), ...(flags.migrate ? [runScript(pm, 'db:migrate')] : [])]
      console.error(
        `\nerror: conflicts in ${conflicts.join(', ')}: resolve them (git diff shows the markers)${then.length ? `, then run ${then.join(' && ')}` : ''}`,
      )
      return 1
    }
    if (flags.install) {
      const failure = await installDependencies(pm, dir)
      if (failure) throw new Refusal(`${failure}; the files are updated, to retry: ${pm} install`)
    }
    if (flags.migrate) {
      const failure = await migrate(pm, dir, newEnv)
      if (failure) throw new Refusal(failure)
    }
    console.log(`\nDone. ${RECORD_FILE} records the new answers; review the changes (git diff) and commit them.`)
    return 0
  } catch (error) {
    if (error instanceof UsageError || error instanceof Refusal) {
      console.error(`error: ${error.message}`)
      return 1
    }
    throw error
  }
}
