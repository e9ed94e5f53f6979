/**
 * Generates the variants (src/variants.ts: CI's set, every value of every option in one of three
 * variants; with --pairwise the pairwise-covering set, with --release the 3-wise set test:release
 * runs, or with --all every combination) into a temporary folder outside the
 * repo, links them all to one shared install,
 * and, but with --all, skips what an earlier variant of the run proved (`skipRepeats` below),
 * and runs each variant's own typecheck, tests and build, then starts it as a user would
 * (`db:migrate`, `start`) and asks `/api/health`. A client already checked in the run (the same
 * bytes) is not type-checked again, a test file proved earlier in the run is not run again
 * (`testsToRun`), each compile runs once (build's server compile is its type check), each browser
 * test file runs once, in the first variant that has it, and the next variant compiles while this
 * one's tests run (`compileVariant`). The run's first variant also follows its README's worked
 * example in a fresh render (`readme-example`, scripts/lib/readme-example-step.ts). Variants on
 * Redis start with REDIS_URL set, and those with a database server also run the scale-out step
 * (two instances and a worker behind nginx).
 * MySQL and PostgreSQL variants get a fresh database on the machine's MariaDB or
 * PostgreSQL each run, dropped afterwards; Redis is the machine's. The default variant runs on
 * the newest Node LTS (scripts/lib/toolchains.ts), the others on the machine's Node; every
 * package manager and Node line installs the default app in `npm run test:install -- --all`.
 *
 *   npm run test:variants [-- --pairwise | --release | --all] [-- --only sqlite,mysql] [-- --steps typecheck,test] [-- --keep]
 */
import { createHash, randomBytes } from 'node:crypto'
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { basename, delimiter, join, relative } from 'node:path'
import { parseArgs } from 'node:util'
import { execa } from 'execa'
import { ALL_VARIANT_IDS, CI_VARIANT_IDS, RELEASE_VARIANT_IDS, VARIANT_IDS, type Variant, variant, variantAnswers } from '../src/variants.js'
import { appEnv } from './lib/app-env.js'
import { appEngines, checkAllowScripts, checkEngines } from './lib/install-checks.js'
import { MANAGERS, NEWEST_NODE, PROVEN_NODE_MAJORS, toolchain } from './lib/toolchains.js'
import { freshDatabase } from './lib/database.js'
import { runScaleOut } from './lib/scale-out.js'
import { runReadmeExample } from './lib/readme-example-step.js'
import { addProved, dueClientTests, dueServerTests, type DueTests, filesUnder, type ProvedTests, testFilters, writeLedger } from './lib/proved-tests.js'
import { renderLinkedVariant, sharedNodeModules } from './lib/shared-install.js'
import { freePort } from './lib/ports.js'
import { whileStarted } from './lib/start-script.js'

const STEPS = ['typecheck', 'test', 'readme-example', 'build', 'start', 'test:e2e', 'scale-out'] as const
type Step = (typeof STEPS)[number]

/** Two instances and a worker behind a real nginx (scripts/lib/scale-out.ts): on Redis, with a database server. */
const scalesOut = (variant: Variant) => variant.redis && variantAnswers(variant.id).db !== 'sqlite'
const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379'
/** Where each variant's test artifacts (the browser tests' screenshots) are kept after the run. */
const ARTIFACTS = new URL('../test-results/variants/', import.meta.url)

const { values } = parseArgs({
  options: {
    only: { type: 'string' },
    steps: { type: 'string' },
    keep: { type: 'boolean', default: false },
    pairwise: { type: 'boolean', default: false },
    release: { type: 'boolean', default: false },
    all: { type: 'boolean', default: false },
  },
})
if ([values.pairwise, values.release, values.all].filter(Boolean).length > 1) throw new Error('one of --pairwise, --release and --all')
const variants = values.only
  ? values.only.split(',')
  : values.all
    ? ALL_VARIANT_IDS
    : values.release
      ? RELEASE_VARIANT_IDS
      : values.pairwise
        ? VARIANT_IDS
        : CI_VARIANT_IDS
/**
 * CI's run skips what an earlier variant of the run already proved, to stay
 * within its time: a server test file already run with the same bytes on the same database,
 * unless it reads the layer registry; a client test file already run with every app file it
 * loads the same; and the scale-out step after its first run. `--release` (test:release's 3-wise
 * set) skips alike: a skipped file ran with the same bytes, and skipping is what fits the release
 * gate in its hour. `--all` (test:release:all, the whole product) runs everything. What passed is
 * left in a ledger for test:update (`scripts/lib/proved-tests.ts`).
 */
const skipRepeats = !values.all
const steps = (values.steps ? values.steps.split(',') : STEPS) as Step[]
for (const id of variants) variant(id)
for (const step of steps) if (!STEPS.includes(step)) throw new Error(`unknown step ${step}`)

interface Result {
  variant: string
  step: string
  ok: boolean
  seconds: number
}

const results: Result[] = []

/** `npm run db:migrate`, then `npm start` on a free port until `/api/health` answers 200. */
async function startAndProbe(cwd: string, env: NodeJS.ProcessEnv): Promise<boolean> {
  const migrate = await execa('npm', ['run', 'db:migrate'], { cwd, env, stdio: 'inherit', reject: false })
  if (migrate.exitCode !== 0) return false
  const { result } = await whileStarted('npm start', await freePort(), { cwd, env, stdio: 'inherit' }, async (health) => {
    if (!health) return false
    console.log(`GET /api/health → ${health.status} ${await health.text()}`)
    return health.status === 200
  })
  return result
}

async function runStep(variant: string, step: Step, cwd: string, env: NodeJS.ProcessEnv, e2eFiles: string[], tests: VariantTests): Promise<boolean> {
  const title = {
    start: 'npm run db:migrate && npm start, then GET /api/health',
    'scale-out': 'two instances and a worker behind nginx',
    'readme-example': "the README's worked example in a fresh render: typecheck, its tests",
  }
  console.log(`\n━━ ${variant}: ${step in title ? title[step as keyof typeof title] : `npm run ${step}`}`)
  if (step === 'test' && tests.server.due.length < tests.server.all) {
    console.log(`(server: ${tests.server.due.length} of ${tests.server.all} test files; the others ran with the same bytes on this database in an earlier variant)`)
  }
  if (step === 'test' && tests.client.due.length < tests.client.all) {
    console.log(`(client: ${tests.client.due.length} of ${tests.client.all} test files; the others ran in an earlier variant with every app file they load the same)`)
  }
  const started = Date.now()
  const ok =
    step === 'start'
      ? await startAndProbe(cwd, env)
      : step === 'scale-out'
        ? await runScaleOut(cwd, env)
        : step === 'readme-example'
          ? await runReadmeExample(variant, cwd, env)
          : await runVitestStep(variant, step, cwd, env, stepArguments(step, e2eFiles, tests))
  results.push({ variant, step, ok, seconds: (Date.now() - started) / 1000 })
  return ok
}

/** What failed in each vitest step, printed again after the table: a CI log keeps only its end. */
const failures: string[] = []

/** `npm run test` or `test:e2e`, with vitest's JSON report beside its usual output, read back when the step fails. */
async function runVitestStep(variant: string, step: Step, cwd: string, env: NodeJS.ProcessEnv, args: string[]): Promise<boolean> {
  const report = join(cwd, `vitest-${step.replace(':', '-')}.json`)
  const reporters = ['--reporter=default', '--reporter=json', `--outputFile.json=${report}`]
  const run = await execa('npm', ['run', step, '--', ...reporters, ...args], { cwd, env, stdio: 'inherit', reject: false })
  if (run.exitCode === 0) return true
  failures.push(`${variant} ${step}:`, ...failedTests(cwd, report))
  return false
}

/** The failed tests of a vitest JSON report, each with the first lines of its message. */
function failedTests(cwd: string, report: string): string[] {
  if (!existsSync(report)) return ['  (no report: vitest did not finish)']
  const { testResults } = JSON.parse(readFileSync(report, 'utf8')) as {
    testResults: { name: string; message?: string; status: string; assertionResults: { fullName: string; status: string; failureMessages: string[] }[] }[]
  }
  const lines: string[] = []
  for (const file of testResults) {
    const name = relative(cwd, file.name)
    if (file.status === 'failed' && file.assertionResults.every((test) => test.status !== 'failed')) lines.push(`  ${name}: ${firstLines(file.message ?? 'failed')}`)
    for (const test of file.assertionResults.filter((test) => test.status === 'failed')) {
      lines.push(`  ${name} > ${test.fullName}: ${firstLines(test.failureMessages[0] ?? '')}`)
    }
  }
  return lines.length > 0 ? lines : ['  (the report names no failed test: see the step\'s output)']
}

const firstLines = (text: string) => text.split('\n').slice(0, 4).join('\n    ')

/**
 * typecheck or build, from the app's own scripts less what another step of this run already ran
 * with the same arguments: the client's `vue-tsc --noEmit` (typecheck, or an earlier variant with
 * the same client) and the server's `tsc --noEmit` (build compiles the same files, checking them).
 * `print` is where its output goes: the console, or the variant's log when it runs beside another
 * variant's tests.
 */
async function runCompileStep(variant: string, step: 'typecheck' | 'build', cwd: string, env: NodeJS.ProcessEnv, clientCheckedBy: string | undefined, print: ((text: string) => void) | undefined): Promise<boolean> {
  const log = print ?? ((text: string) => console.log(text))
  log(`\n━━ ${variant}: npm run ${step}`)
  const skip = (command: string) =>
    step === 'typecheck'
      ? (command === CLIENT_CHECK && clientCheckedBy !== undefined) || (command === SERVER_CHECK && steps.includes('build'))
      : command === CLIENT_CHECK && (clientCheckedBy !== undefined || typecheckPassed.has(variant))
  const scripts = JSON.parse(readFileSync(join(cwd, 'package.json'), 'utf8')).scripts as Record<string, string>
  const commands = scripts[step]!.split(' && ')
  if (commands.some(skip)) log(`(${commands.filter(skip).join(', ')}: checked by another step of this run)`)
  const started = Date.now()
  let ok = true
  for (const command of commands.filter((command) => !skip(command))) {
    const [bin, ...args] = command.split(' ')
    const run = await execa(join(cwd, 'node_modules', '.bin', bin!), args, { cwd, env, reject: false, ...(print ? { all: true } : { stdio: 'inherit' as const }) })
    if (print && run.all) print(run.all)
    if (run.exitCode !== 0) {
      ok = false
      break
    }
  }
  if (ok && step === 'typecheck') typecheckPassed.add(variant)
  results.push({ variant, step, ok, seconds: (Date.now() - started) / 1000 })
  return ok
}

function stepArguments(step: Step, e2eFiles: string[], { server, client }: VariantTests): string[] {
  if (step === 'test:e2e') return e2eFiles
  return step === 'test' ? (testFilters(server, client) ?? []) : []
}

/** The browser test files that ran in an earlier variant of this run. */
const ranInBrowser = new Set<string>()

/**
 * A browser test file runs in the first variant that has it: base's pages in the first
 * variant, a layer's in the first variant with the layer (which also drives the base pages the
 * layer adds to). Another variant's browser run would repeat the same pages, each costing
 * a minute or more of CI's 30.
 */
function browserFilesToRun(cwd: string): string[] {
  const files = readdirSync(join(cwd, 'e2e'))
    .filter((name) => name.endsWith('.test.ts'))
    .map((name) => `e2e/${name}`)
    .filter((file) => !ranInBrowser.has(file))
  for (const file of files) ranInBrowser.add(file)
  return files
}

const CLIENT_CHECK = 'vue-tsc --noEmit -p tsconfig.client.json'
const SERVER_CHECK = 'tsc --noEmit -p tsconfig.server.json'

/** The variants whose typecheck step passed in this run: their build need not check the client again. */
const typecheckPassed = new Set<string>()

let scaledOut = false

/** The test files run so far in this run (see `scripts/lib/proved-tests.ts`). */
const testsRun: ProvedTests = new Map()

/** The server and client test files a variant's test step runs. */
interface VariantTests {
  server: DueTests
  client: DueTests
}

/**
 * The test files this variant must run: with `skipRepeats`, not the server files an earlier
 * variant ran with the same bytes on the same database, nor the client files an earlier variant
 * ran with every app file they load the same (`dueServerTests` and `dueClientTests` say which run
 * again anyway), with the keys to record once they pass.
 */
function testsToRun(id: string, cwd: string): VariantTests {
  const db = variantAnswers(id).db
  const proved = skipRepeats ? testsRun : new Map()
  const tests = { server: dueServerTests(cwd, db, proved), client: dueClientTests(cwd, proved) }
  addProved(testsRun, db, tests.server.ran)
  addProved(testsRun, undefined, tests.client.ran)
  return tests
}

/** The variant whose run checked each client: the client depends on few answers, and its tests on none of the database. */
const checkedClients = new Map<string, string>()

/**
 * The client of most variants is the same bytes: the first of them type-checks it, and the
 * others do not again (its tests are chosen file by file: `testsToRun`). Returns the variant that
 * already checked this one's client, if any.
 */
function clientCheckedBefore(variant: string, cwd: string): string | undefined {
  const hash = createHash('sha256')
  // The folder's name is the app's (in the page title): the same client under another name.
  for (const file of filesUnder(join(cwd, 'client')).concat(join(cwd, 'vitest.config.ts'), join(cwd, 'tsconfig.client.json'))) {
    hash.update(file.slice(cwd.length)).update(readFileSync(file, 'utf8').replaceAll(basename(cwd), '\0'))
  }
  const digest = hash.digest('hex')
  const checked = checkedClients.get(digest)
  if (checked === undefined) checkedClients.set(digest, variant)
  return checked
}


/** The variant's environment: on loopback only (appEnv), Redis, and the newest Node line for the first variant. */
async function variantEnv(id: string): Promise<NodeJS.ProcessEnv> {
  const env = appEnv({ ...process.env, TEST_REDIS_URL: REDIS_URL, ...(variant(id).redis ? { REDIS_URL } : {}) })
  delete env.npm_config_user_agent
  if (id === VARIANT_IDS[0]) env.PATH = `${(await toolchain(MANAGERS[0]!, NEWEST_NODE)).bin}${delimiter}${env.PATH}`
  return env
}

/** The steps that only read the app and compile it, and those that need what build wrote. */
const COMPILE_STEPS = ['typecheck', 'build'] as const
const AFTER_BUILD: Step[] = ['start', 'test:e2e', 'scale-out']

interface Compiled {
  id: string
  dir: string
  clientCheckedBy: string | undefined
  built: boolean
  /** The output of steps that ran beside another variant's tests, printed when this variant's turn comes. */
  output: string
}

/**
 * Renders a variant and runs its compile steps. Type-checking and building keep one core busy,
 * and a variant's tests leave part of the other idle, so the next variant compiles during them
 * (`quiet`: its output waits for its turn). Only during the tests: beside a browser test or the
 * scale-out step, a compiler would slow what those measure.
 */
async function compileVariant(id: string, root: string, modules: string, quiet: boolean): Promise<Compiled> {
  const dir = join(root, id)
  mkdirSync(dir)
  renderLinkedVariant(id, dir, modules)
  const env = await variantEnv(id)
  const compiled: Compiled = { id, dir, clientCheckedBy: clientCheckedBefore(id, dir), built: true, output: '' }
  const print = quiet ? (text: string) => void (compiled.output += `${text}\n`) : undefined
  ;(print ?? console.log)(`\n━━ ${id} on Node ${(await execa('node', ['--version'], { env })).stdout}`)
  for (const step of COMPILE_STEPS) {
    if (!steps.includes(step)) continue
    const ok = await runCompileStep(id, step, dir, env, compiled.clientCheckedBy, print)
    if (step === 'build') compiled.built = ok
  }
  return compiled
}

/** Runs the variant's other steps; `compileNext` starts the next variant's compile steps, awaited when this one's tests end. */
async function exerciseVariant({ id, dir, built }: Compiled, compileNext: () => Promise<unknown> | undefined): Promise<void> {
  const answers = variantAnswers(id)
  const runId = `${Date.now().toString(36)}${randomBytes(2).toString('hex')}`
  const database = await freshDatabase(answers.db, `cca_${id.replace(/-/g, '_')}_${runId}`)
  const env: NodeJS.ProcessEnv = { ...(await variantEnv(id)), ...(database ? { DATABASE_URL: database.url } : {}) }
  const none = { due: [], all: 0, ran: new Set<string>() }
  const tests = steps.includes('test') ? testsToRun(id, dir) : { server: none, client: none }
  try {
    for (const step of steps) {
      if ((COMPILE_STEPS as readonly string[]).includes(step)) continue
      // A variant that does not build has nothing to start or run in a browser.
      if (!built && AFTER_BUILD.includes(step)) break
      const e2eFiles = step === 'test:e2e' ? browserFilesToRun(dir) : []
      if (step === 'test:e2e' && e2eFiles.length === 0) continue
      if (step === 'test' && testFilters(tests.server, tests.client) === undefined) continue
      if (step === 'scale-out' && (!scalesOut(variant(id)) || (skipRepeats && scaledOut))) continue
      if (step === 'scale-out') scaledOut = true
      // The example is the same in every variant's README; following it once tells whether it works.
      if (step === 'readme-example' && id !== variants[0]) continue
      const next = step === 'test' ? compileNext() : undefined
      const ok = await runStep(id, step, dir, env, e2eFiles, tests)
      await next
      // test:update, after this in `npm test`, need not run these again in its merged app.
      if (ok && step === 'test') writeLedger(answers.db, tests.server.ran, tests.client.ran)
    }
  } finally {
    const results = join(dir, 'test-results')
    if (existsSync(results)) {
      const kept = new URL(`${id}/`, ARTIFACTS)
      rmSync(kept, { recursive: true, force: true })
      cpSync(results, kept, { recursive: true })
      console.log(`artifacts: ${kept.pathname}`)
    }
    await database?.drop()
  }
}

const started = Date.now()
const modules = await sharedNodeModules()
checkAllowScripts(modules)
checkEngines(modules, appEngines(), PROVEN_NODE_MAJORS)
const root = mkdtempSync(join(tmpdir(), 'cca-variants-'))
console.log(`variants: ${variants.join(', ')} in ${root}`)
try {
  let compiling: Promise<Compiled> | undefined = compileVariant(variants[0]!, root, modules, false)
  for (const [index, id] of variants.entries()) {
    const current: Compiled = await compiling!
    compiling = undefined
    const following = variants[index + 1]
    const compileNext = () => (compiling ??= following === undefined ? undefined : compileVariant(following, root, modules, true))
    if (current.output) console.log(`\n(${id} compiled during the previous variant's tests)${current.output}`)
    await exerciseVariant(current, compileNext)
    // Without a test step to compile beside, the next variant compiles now.
    compileNext()
  }
} finally {
  if (!values.keep) rmSync(root, { recursive: true, force: true })
}

console.log(`\n${'variant'.padEnd(14)} ${'step'.padEnd(14)} result  seconds`)
// In run order, though the next variant's compile steps ran during the tests of the one before.
results.sort((a, b) => variants.indexOf(a.variant) - variants.indexOf(b.variant) || STEPS.indexOf(a.step as Step) - STEPS.indexOf(b.step as Step))
for (const result of results) {
  console.log(`${result.variant.padEnd(14)} ${result.step.padEnd(14)} ${(result.ok ? 'pass' : 'FAIL').padEnd(6)} ${result.seconds.toFixed(1).padStart(8)}`)
}
const failed = results.filter((result) => !result.ok).length
if (failures.length > 0) console.log(`\nfailed tests:\n${failures.join('\n')}`)
console.log(`\nall variants in ${((Date.now() - started) / 1000).toFixed(0)} s`)
// The plain closing line CI reads: each row above is one variant step.
console.log(`variants: ${results.length - failed} passed, ${failed} failed`)
process.exitCode = failed > 0 || results.length === 0 ? 1 : 0
