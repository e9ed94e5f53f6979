/**
 * A dry run of adding a feature layer: which files outside the layer's own folder it takes. In a
 * copy of this checkout (its working tree, uncommitted changes included), adds the toy layer
 * `hello` from scripts/dry-run-layer/hello/ as templates/hello/ (a route on /api/hello, a job, a
 * way to sign in, and its test), its row in src/options.ts and in README.md's options table, then
 * builds, generates an app with `--hello` through the built CLI, type-checks it and runs the
 * layer's test on the shared install. Prints the copy's changes outside templates/hello/ and
 * whether they are exactly the options row and the README row; then what the generator's own
 * checks of the options table say about the copy, since CI runs those too.
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
/** What adding a layer should change outside its folder. */
const EXPECTED = ['README.md', 'src/options.ts']

const OPTIONS_FIELD = { after: '  oauth: OAuthProvider[]\n', text: '  hello: boolean\n' }
const OPTIONS_ROW = {
  after: "    matrix: { tag: 'oauth', custom: OAUTH_PROVIDERS.join(',') },\n  }),\n",
  text: `  row({
    key: 'hello',
    flag: '--hello',
    description: 'say hello (a toy layer)',
    prompt: 'Say hello?',
    default: () => false,
    layer: 'hello',
    matrix: { tag: 'hello' },
  }),
`,
}
const README_ROW = {
  after: /^\| `--oauth <providers>` .*\n/m,
  text: '| `--hello` / `--no-hello` | Say hello? | the toy hello layer (`templates/hello/`): `GET` and `POST /api/hello`, a greeting job, a way to sign in | no |\n',
}

/** Inserts `text` after the one place `after` matches; a missing or repeated anchor ends the run. */
function insertAfter(file: string, after: string | RegExp, text: string): void {
  const source = readFileSync(file, 'utf8')
  const pattern = typeof after === 'string' ? new RegExp(after.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'), 'g') : new RegExp(after.source, `${after.flags}g`)
  const matches = [...source.matchAll(pattern)]
  if (matches.length !== 1) throw new Error(`${file}: the anchor ${String(after)} matches ${matches.length} times, not once`)
  const end = matches[0]!.index + matches[0]![0].length
  writeFileSync(file, source.slice(0, end) + text + source.slice(end))
}

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

/** This checkout's files as its working tree has them (tracked and new, not ignored), in a repository of their own. */
async function copyCheckout(copy: string): Promise<void> {
  const { stdout } = await execa('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard'], { cwd: REPO })
  for (const path of stdout.split('\0').filter(Boolean)) {
    if (!existsSync(join(REPO, path))) continue
    mkdirSync(dirname(join(copy, path)), { recursive: true })
    cpSync(join(REPO, path), join(copy, path))
  }
  symlinkSync(join(REPO, 'node_modules'), join(copy, 'node_modules'), 'dir')
  const git = (...args: string[]) => execa('git', ['-c', 'user.name=dry run', '-c', 'user.email=dry-run@example.invalid', ...args], { cwd: copy })
  await git('init', '-q')
  // A link to a folder is not a folder to git, so .gitignore's `node_modules/` misses it.
  writeFileSync(join(copy, '.git', 'info', 'exclude'), '/node_modules\n')
  await git('add', '-A')
  await git('commit', '-q', '-m', 'before the layer')
}

/** The copy built, an app generated with `--hello`, type-checked, and the layer's test run; stops at the first failure. */
async function buildAndTest(): Promise<boolean> {
  if (!(await step('build', 'npm', ['run', 'build'], { cwd: copy }))) return false
  if (!(await step('generate', 'node', ['bin/create-cookie-auth-app.js', app, '--hello', '--yes', '--no-install', '--no-git'], { cwd: copy }))) return false
  // The layer brings no package.json, so the app's dependencies are those of the shared install.
  symlinkSync(await sharedNodeModules(), join(app, 'node_modules'), 'dir')
  const bin = (name: string) => join(app, 'node_modules', '.bin', name)
  return (
    (await step('typecheck server', bin('tsc'), ['--noEmit', '-p', 'tsconfig.server.json'], { cwd: app })) &&
    (await step('typecheck tests', bin('tsc'), ['--noEmit', '-p', 'tsconfig.test.json'], { cwd: app })) &&
    (await step('hello test', bin('vitest'), ['run', '--project', 'server', 'server/tests/hello.test.ts'], { cwd: app, env: appEnv() }))
  )
}

/** The generator's unit tests that read the options table and the layers: what CI's unit run would say of the copy. */
const GENERATOR_CHECKS = ['test/options.test.ts', 'test/readme.test.ts', 'test/generate.test.ts', 'test/variant-cover.test.ts']

/** Runs GENERATOR_CHECKS in the copy; returns the failing tests as `file > describe > test: the failure's first line`. */
async function generatorChecks(): Promise<string[]> {
  const report = join(root, 'generator-checks.json')
  await step('generator checks', join(copy, 'node_modules', '.bin', 'vitest'), ['run', '--reporter=json', `--outputFile=${report}`, ...GENERATOR_CHECKS], { cwd: copy, stdio: 'ignore' })
  type Result = { fullName: string; status: string; failureMessages: string[] }
  const { testResults } = JSON.parse(readFileSync(report, 'utf8')) as { testResults: { name: string; assertionResults: Result[] }[] }
  const reason = (test: Result) => (test.failureMessages[0] ?? '').split('\n')[0]!.slice(0, 140)
  return testResults.flatMap((file) =>
    file.assertionResults.filter((test) => test.status === 'failed').map((test) => `${file.name.slice(copy.length + 1)} > ${test.fullName}:\n      ${reason(test)}`),
  )
}

const root = mkdtempSync(join(tmpdir(), 'cca-dry-run-layer-'))
const copy = join(root, 'repo')
const app = join(root, 'app')
let layerPasses = false
let exact = false
try {
  await copyCheckout(copy)
  cpSync(LAYER, join(copy, 'templates', 'hello'), { recursive: true })
  insertAfter(join(copy, 'src', 'options.ts'), OPTIONS_FIELD.after, OPTIONS_FIELD.text)
  insertAfter(join(copy, 'src', 'options.ts'), OPTIONS_ROW.after, OPTIONS_ROW.text)
  insertAfter(join(copy, 'README.md'), README_ROW.after, README_ROW.text)
  console.log(`dry run in ${copy}: templates/hello/ from scripts/dry-run-layer/hello/, the options row, the README row`)

  layerPasses = await buildAndTest()
  const failing = await generatorChecks()

  await execa('git', ['add', '-A'], { cwd: copy })
  const stat = (await execa('git', ['diff', '--cached', '--stat=100', '--', '.', ':(exclude)templates/hello/'], { cwd: copy })).stdout
  const changed = (await execa('git', ['diff', '--cached', '--name-only', '--', '.', ':(exclude)templates/hello/'], { cwd: copy })).stdout.split('\n').filter(Boolean)
  const layer = (await execa('git', ['diff', '--cached', '--name-only', '--', 'templates/hello/'], { cwd: copy })).stdout.split('\n').filter(Boolean)
  exact = changed.length === EXPECTED.length && changed.every((path, index) => path === EXPECTED[index])

  console.log('\n━━ result')
  for (const { name, ok, seconds } of steps) console.log(`${name.padEnd(17)} ${(ok ? 'pass' : 'FAIL').padEnd(5)} ${seconds.toFixed(1).padStart(6)} s`)
  console.log(`\nthe layer: ${layer.length} files in templates/hello/ (${layer.map((path) => path.slice('templates/hello/'.length)).join(', ')})`)
  console.log(`changed outside templates/hello/:\n${stat}`)
  console.log(`exactly {${EXPECTED.join(', ')}}: ${exact ? 'yes' : 'no'}`)
  console.log(`\nthe generator's checks of the options table on the copy (${GENERATOR_CHECKS.join(', ')}): ${failing.length} failing`)
  for (const test of failing) console.log(`  ${test}`)
} finally {
  if (values.keep) console.log(`kept ${root}`)
  else rmSync(root, { recursive: true, force: true })
}
// The generator's checks report what else CI would ask for; the verdict is the layer's own steps and the files.
process.exitCode = layerPasses && exact ? 0 : 1
