/**
 * A dry run of adding a feature layer: which files outside the layer's own folder it takes. In a
 * copy of this checkout (its working tree, uncommitted changes included), adds the toy layer
 * `hello` from scripts/dry-run-layer/hello/ as templates/hello/ (its options row in layer.ts, a
 * route on /api/hello, a job, a way to sign in, and its test), and nothing else by hand. Then runs
 * what regenerates the files the options table makes (`npm run variants:cover -- --write
 * --extend --write-release`, `npm run readme:options`, `npm run snapshots:update`, which builds), generates an app
 * with `--hello` through the built CLI, type-checks it and runs the layer's test (and the app's
 * slices test, which holds a layer to the kernel's index) on the shared install, and last the
 * generator's own checks of the options table and the layers, as CI would. Prints the hand-made changes outside templates/hello/ (there should be none), what the
 * regenerating scripts changed, and the checks that fail, with why. Exit 1 when a step or a check
 * fails or a hand-made change lies outside the folder.
 *
 *   npm run report:dry-run-layer [-- --keep]
 */
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { parseArgs } from 'node:util'
import { execa, type Options } from 'execa'
import { appEnv } from './lib/app-env.js'
import { sharedNodeModules } from './lib/shared-install.js'

const { values } = parseArgs({ options: { keep: { type: 'boolean', default: false } } })
const REPO = new URL('..', import.meta.url).pathname
const LAYER = new URL('dry-run-layer/hello/', import.meta.url).pathname

interface Step {
  name: string
  ok: boolean
  seconds: number
}
const steps: Step[] = []

async function step(name: string, command: string, args: string[], options: Options): Promise<boolean> {
  console.log(`\n━━ ${name}: ${command.replace(/^.*\/node_modules\/\.bin\//, '')} ${args.join(' ')}`)
  const started = Date.now()
  const { exitCode } = await execa(command, args, { stdio: 'inherit', reject: false, ...options })
  steps.push({ name, ok: exitCode === 0, seconds: (Date.now() - started) / 1000 })
  return exitCode === 0
}

const git = (...args: string[]) => execa('git', ['-c', 'user.name=dry run', '-c', 'user.email=dry-run@example.invalid', ...args], { cwd: copy })

/** This checkout's files as its working tree has them (tracked and new, not ignored), in a repository of their own. */
async function copyCheckout(): Promise<void> {
  const { stdout } = await execa('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard'], { cwd: REPO })
  for (const path of stdout.split('\0').filter(Boolean)) {
    if (!existsSync(join(REPO, path))) continue
    mkdirSync(dirname(join(copy, path)), { recursive: true })
    cpSync(join(REPO, path), join(copy, path))
  }
  symlinkSync(join(REPO, 'node_modules'), join(copy, 'node_modules'), 'dir')
  await git('init', '-q')
  // A link to a folder is not a folder to git, so .gitignore's `node_modules/` misses it.
  writeFileSync(join(copy, '.git', 'info', 'exclude'), '/node_modules\n')
  await git('add', '-A')
  await git('commit', '-q', '-m', 'before the layer')
}

/** The paths changed since the last commit of the copy (new files included), then commits them as `message`. */
async function changesSinceLastCommit(message: string): Promise<string[]> {
  await git('add', '-A')
  const changed = (await git('diff', '--cached', '--name-only')).stdout.split('\n').filter(Boolean)
  await git('commit', '-q', '--allow-empty', '-m', message)
  return changed
}

/** Paths as people read a list of them: each snapshot folder as one line with its count of files. */
function summarise(paths: string[]): string[] {
  const groups = new Map<string, number>()
  for (const path of paths) {
    const folder = /^test\/__snapshots__\/variants\/[^/]+\//.exec(path)?.[0]
    groups.set(folder ?? path, (groups.get(folder ?? path) ?? 0) + 1)
  }
  return [...groups].map(([path, count]) => (path.endsWith('/') ? `${path} (${count} ${count === 1 ? 'file' : 'files'})` : path))
}

const SLICES_TEST = 'server/tests/slices.test.ts'

/** The app generated with `--hello` by the built CLI, type-checked, and the layer's test run; stops at the first failure. */
async function generateAndTest(): Promise<boolean> {
  if (!(await step('generate', 'node', ['bin/create-cookie-auth-app.js', app, '--hello', '--yes', '--no-install', '--no-git'], { cwd: copy }))) return false
  // The layer brings no package.json, so the app's dependencies are those of the shared install.
  symlinkSync(await sharedNodeModules(), join(app, 'node_modules'), 'dir')
  const bin = (name: string) => join(app, 'node_modules', '.bin', name)
  return (
    (await step('typecheck server', bin('tsc'), ['--noEmit', '-p', 'tsconfig.server.json'], { cwd: app })) &&
    (await step('typecheck tests', bin('tsc'), ['--noEmit', '-p', 'tsconfig.test.json'], { cwd: app })) &&
    (await step('hello test', bin('vitest'), ['run', '--project', 'server', 'server/tests/hello.test.ts'], { cwd: app, env: appEnv() })) &&
    // The app's fitness test of its slices, where base has one: the layer stands on the kernel's index alone.
    (!existsSync(join(app, SLICES_TEST)) || (await step('slices test', bin('vitest'), ['run', '--project', 'server', SLICES_TEST], { cwd: app, env: appEnv() })))
  )
}

/** The generator's unit tests that read the options table, the layers and what they make: what CI's unit run would say of the copy. */
const GENERATOR_CHECKS = ['test/options.test.ts', 'test/readme.test.ts', 'test/generate.test.ts', 'test/variant-cover.test.ts', 'test/release-cover.test.ts', 'test/snapshots.test.ts']

/** Runs GENERATOR_CHECKS in the copy; returns the failing tests as `file > describe > test: the failure's first line`. */
async function generatorChecks(): Promise<string[]> {
  const report = join(root, 'generator-checks.json')
  await step('generator checks', join(copy, 'node_modules', '.bin', 'vitest'), ['run', '--reporter=json', `--outputFile=${report}`, ...GENERATOR_CHECKS], { cwd: copy, stdio: 'ignore' })
  if (!existsSync(report)) return ['vitest wrote no report']
  type Result = { fullName: string; status: string; failureMessages: string[] }
  const { testResults } = JSON.parse(readFileSync(report, 'utf8')) as { testResults: { name: string; status: string; message?: string; assertionResults: Result[] }[] }
  const reason = (message: string) => message.split('\n')[0]!.slice(0, 140)
  return testResults.flatMap((file) => {
    const failed = file.assertionResults.filter((test) => test.status === 'failed')
    // A file that failed before its tests ran (an import that threw) has none to list.
    if (file.status === 'failed' && failed.length === 0) return [`${file.name.slice(copy.length + 1)}:\n      ${reason(file.message ?? 'failed')}`]
    return failed.map((test) => `${file.name.slice(copy.length + 1)} > ${test.fullName}:\n      ${reason(test.failureMessages[0] ?? '')}`)
  })
}

const root = mkdtempSync(join(tmpdir(), 'cca-dry-run-layer-'))
const copy = join(root, 'repo')
const app = join(root, 'app')
let ok = false
try {
  await copyCheckout()
  cpSync(LAYER, join(copy, 'templates', 'hello'), { recursive: true })
  const layer = (await changesSinceLastCommit('the hello layer, by hand')).filter((path) => path.startsWith('templates/hello/'))
  const byHand = (await git('diff', '--name-only', 'HEAD~1', 'HEAD', '--', '.', ':(exclude)templates/hello/')).stdout.split('\n').filter(Boolean)
  console.log(`dry run in ${copy}: templates/hello/ from scripts/dry-run-layer/hello/, and nothing else by hand`)

  const regenerated =
    (await step('variants:cover', 'npm', ['run', 'variants:cover', '--', '--write', '--extend', '--write-release'], { cwd: copy })) &&
    (await step('readme:options', 'npm', ['run', 'readme:options'], { cwd: copy })) &&
    (await step('snapshots:update', 'npm', ['run', 'snapshots:update'], { cwd: copy }))
  const written = await changesSinceLastCommit('what the options table makes, regenerated')
  const layerPasses = regenerated && (await generateAndTest())
  const failing = await generatorChecks()
  const exact = byHand.length === 0 && layer.includes('templates/hello/layer.ts')
  ok = layerPasses && exact && failing.length === 0

  console.log('\n━━ result')
  for (const { name, ok: passed, seconds } of steps) console.log(`${name.padEnd(17)} ${(passed ? 'pass' : 'FAIL').padEnd(5)} ${seconds.toFixed(1).padStart(6)} s`)
  console.log(`\nthe layer: ${layer.length} files in templates/hello/ (${layer.map((path) => path.slice('templates/hello/'.length)).join(', ')})`)
  console.log(`changed by hand outside templates/hello/: ${byHand.length === 0 ? 'nothing' : byHand.join(', ')}`)
  console.log(`only its own folder, its layer.ts included: ${exact ? 'yes' : 'no'}`)
  console.log(`regenerated by variants:cover, readme:options and snapshots:update: ${written.length} files`)
  for (const line of summarise(written)) console.log(`  ${line}`)
  console.log(`\nthe generator's checks on the copy (${GENERATOR_CHECKS.join(', ')}): ${failing.length} failing`)
  for (const test of failing) console.log(`  ${test}`)
  console.log(`\nverdict: ${ok ? 'pass' : 'FAIL'}`)
} finally {
  if (values.keep) console.log(`kept ${root}`)
  else rmSync(root, { recursive: true, force: true })
}
process.exitCode = ok ? 0 : 1
