/**
 * Runs one test file of a generated variant (or of the generator) N times and prints what failed
 * in each run, so a flaky test is caught before it lands:
 *
 *   npm run test:repeat -- --variant mysql --times 20 server/tests/jobs.test.ts
 *   npm run test:repeat -- --times 10 test/cli.test.ts            (the generator's own tests)
 *   npm run test:repeat -- --variant sqlite --load 1 server/tests/login.test.ts
 *
 * A variant is rendered once (fresh secrets, linked to the shared install) into a temporary
 * folder with a fresh MySQL or PostgreSQL database, as the variant run does; `e2e/` files are run
 * with the browser config after one build. `--load N` keeps N processes spinning meanwhile, to see
 * a test on a machine as busy as CI's. Exits 1 when any run failed.
 */
import { spawn, type ChildProcess } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { parseArgs } from 'node:util'
import { execa } from 'execa'
import { variantAnswers } from '../src/variants.js'
import { appEnv } from './lib/app-env.js'
import { freshDatabase } from './lib/database.js'
import { renderLinkedVariant, sharedNodeModules } from './lib/shared-install.js'

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    variant: { type: 'string' },
    times: { type: 'string', default: '10' },
    load: { type: 'string', default: '0' },
    keep: { type: 'boolean', default: false },
  },
})
const file = positionals[0]
const times = Number(values.times)
const load = Number(values.load)
if (!file || !Number.isInteger(times) || times < 1 || !Number.isInteger(load) || load < 0) {
  console.error('usage: npm run test:repeat -- [--variant <id>] [--times N] [--load N] [--keep] <test file>')
  process.exit(1)
}

interface JsonReport {
  testResults: Array<{ name: string; message?: string; assertionResults: Array<{ fullName: string; status: string; failureMessages: string[] }> }>
}

/** Tests that failed in one vitest run, as `name: first line of the error`. */
function failuresOf(report: JsonReport): string[] {
  return report.testResults.flatMap((result) => {
    const failed = result.assertionResults
      .filter((test) => test.status === 'failed')
      .map((test) => `${test.fullName}: ${test.failureMessages[0]?.split('\n')[0] ?? ''}`)
    // A file that fails to load or whose hooks throw has no failed test of its own.
    return failed.length === 0 && result.message ? [`${result.name}: ${result.message.split('\n')[0]}`] : failed
  })
}

const generatorRoot = new URL('..', import.meta.url).pathname
let cwd = generatorRoot
let env: NodeJS.ProcessEnv = { ...process.env }
let cleanup = async () => {}
if (values.variant) {
  const answers = variantAnswers(values.variant)
  const root = mkdtempSync(join(tmpdir(), 'cca-repeat-'))
  cwd = join(root, values.variant)
  renderLinkedVariant(values.variant, cwd, await sharedNodeModules())
  const database = await freshDatabase(answers.db, `cca_repeat_${Date.now().toString(36)}${randomBytes(2).toString('hex')}`)
  env = appEnv({ ...env, ...(database ? { DATABASE_URL: database.url } : {}) })
  delete env.npm_config_user_agent
  cleanup = async () => {
    await database?.drop()
    if (!values.keep) rmSync(root, { recursive: true, force: true })
    else console.log(`kept ${cwd}`)
  }
}

const e2e = file.startsWith('e2e/')
if (e2e) await execa('npm', ['run', 'build'], { cwd, env, stdio: 'inherit' })

// Busy loops at the lowest priority: they take what the tests leave, as a second job on CI would.
const spinners: ChildProcess[] = Array.from({ length: load }, () =>
  spawn('nice', ['-n', '19', process.execPath, '-e', 'for(;;){}'], { stdio: 'ignore' }),
)

const failedRuns: number[] = []
const report = join(mkdtempSync(join(tmpdir(), 'cca-repeat-report-')), 'report.json')
try {
  for (let run = 1; run <= times; run++) {
    const started = Date.now()
    const args = ['vitest', 'run', ...(e2e ? ['--config', 'vitest.e2e.config.ts'] : []), '--reporter=dot', '--reporter=json', `--outputFile.json=${report}`, file]
    const result = await execa('npx', args, { cwd, env, reject: false, all: true })
    let failures: string[]
    try {
      failures = failuresOf(JSON.parse(readFileSync(report, 'utf8')) as JsonReport)
    } catch {
      failures = []
    }
    if (result.exitCode !== 0 && failures.length === 0) failures = [`vitest exited ${result.exitCode}:\n${result.all?.split('\n').slice(-15).join('\n')}`]
    rmSync(report, { force: true })
    const seconds = ((Date.now() - started) / 1000).toFixed(1)
    console.log(`run ${run}/${times}: ${failures.length === 0 ? 'pass' : 'FAIL'} (${seconds} s)`)
    for (const failure of failures) console.log(`  ${failure}`)
    if (failures.length > 0) failedRuns.push(run)
  }
} finally {
  for (const spinner of spinners) spinner.kill()
  await cleanup()
}
console.log(`\n${file}${values.variant ? ` on ${values.variant}` : ''}, ${times} runs${load ? ` beside ${load} busy process(es)` : ''}: ${failedRuns.length === 0 ? 'no failure' : `failed in run(s) ${failedRuns.join(', ')}`}`)
process.exitCode = failedRuns.length > 0 ? 1 : 0
