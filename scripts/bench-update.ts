/**
 * What `add` costs and does (issue 40), with the built CLI:
 *
 *   - the time of `add passkeys --no-install --no-migrate` on the default app in a git repository
 *     (its status is checked first), against generating that app with passkeys fresh
 *     (`--passkeys --no-install`), with git (init and a first commit) and without, all three
 *     alternating; medians of the runs;
 *   - for each feature `add` knows, the files it created, updated, merged, deleted and left in
 *     conflict: on the default app as generated, and on one whose owner edited the files adds
 *     touch most (README.md, .env.example, package.json, server/src/features/index.ts).
 *
 *   npm run bench:update [-- --runs 9]
 */
import { execFileSync, spawnSync } from 'node:child_process'
import { appendFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { parseArgs } from 'node:util'
import { FEATURES } from '../src/options.js'

const { values } = parseArgs({ options: { runs: { type: 'string', default: '9' } } })
const runs = Number(values.runs)
const BIN = fileURLToPath(new URL('../bin/create-cookie-auth-app.js', import.meta.url))
const ACTIONS = ['created', 'updated', 'merged', 'deleted', 'conflict'] as const

const env: NodeJS.ProcessEnv = { ...process.env, CI: '1', GIT_AUTHOR_NAME: 'Owner', GIT_AUTHOR_EMAIL: 'owner@example.test', GIT_COMMITTER_NAME: 'Owner', GIT_COMMITTER_EMAIL: 'owner@example.test' }
delete env.npm_config_user_agent
const root = mkdtempSync(join(tmpdir(), 'cca-bench-update-'))

/** Runs the CLI, in ms; throws on a failure other than `allowedExit`. */
function cli(args: string[], cwd = root, allowedExit = 0): { ms: number; stdout: string } {
  const started = process.hrtime.bigint()
  const result = spawnSync(process.execPath, [BIN, ...args], { cwd, env, encoding: 'utf8' })
  const ms = Number(process.hrtime.bigint() - started) / 1e6
  if (result.status !== 0 && result.status !== allowedExit) throw new Error(`${args.join(' ')} exited ${result.status}: ${result.stderr}`)
  return { ms, stdout: result.stdout }
}

/** The default app in `<root>/<name>`, committed. */
function defaultApp(name: string): string {
  cli([name, '--no-install', '--git', '--yes'])
  return join(root, name)
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!

function counts(stdout: string): Record<(typeof ACTIONS)[number], number> {
  return Object.fromEntries(ACTIONS.map((action) => [action, [...stdout.matchAll(new RegExp(`^${action} +\\S`, 'gm'))].length])) as Record<(typeof ACTIONS)[number], number>
}

function ownerEdits(app: string): void {
  appendFileSync(join(app, 'README.md'), '\n## Our notes\n')
  appendFileSync(join(app, '.env.example'), '# OUR_SETTING=1\n')
  const registry = join(app, 'server/src/features/index.ts')
  writeFileSync(registry, `// Owner: reviewed.\n${readFileSync(registry, 'utf8')}`)
  const pkg = JSON.parse(readFileSync(join(app, 'package.json'), 'utf8'))
  pkg.scripts['owner:hello'] = 'echo hello'
  writeFileSync(join(app, 'package.json'), `${JSON.stringify(pkg, null, 2)}\n`)
  execFileSync('git', ['commit', '-qam', 'owner edits'], { cwd: app, env })
}

try {
  const add: number[] = []
  const fresh: Record<'--git' | '--no-git', number[]> = { '--git': [], '--no-git': [] }
  for (let run = 0; run < runs; run++) {
    const app = defaultApp(`add-${run}`)
    add.push(cli(['add', 'passkeys', '--no-install', '--no-migrate'], app).ms)
    rmSync(app, { recursive: true, force: true })
    for (const git of ['--git', '--no-git'] as const) {
      fresh[git].push(cli([`fresh-${run}`, '--passkeys', '--no-install', git, '--yes']).ms)
      rmSync(join(root, `fresh-${run}`), { recursive: true, force: true })
    }
  }
  console.log(`median of ${runs} runs each, ms:`)
  console.log(`  add passkeys on the default app (no install, no migrate)  ${median(add).toFixed(0).padStart(6)}`)
  for (const git of ['--git', '--no-git'] as const) {
    const ratio = (median(add) / median(fresh[git])).toFixed(2)
    console.log(`  the app with passkeys generated fresh (no install, ${git.padEnd(8)})  ${median(fresh[git]).toFixed(0).padStart(4)}   add / fresh ${ratio}`)
  }

  console.log(`\nfiles per add, on the default app as generated | with owner edits to README.md, .env.example, package.json, features/index.ts`)
  console.log(`${'feature'.padEnd(20)} ${ACTIONS.map((action) => action.padStart(8)).join(' ')} | ${ACTIONS.map((action) => action.padStart(8)).join(' ')}`)
  for (const feature of FEATURES.map((known) => known.name)) {
    const plain = defaultApp(`plain-${feature}`)
    const edited = defaultApp(`edited-${feature}`)
    ownerEdits(edited)
    const [a, b] = [plain, edited].map((app) => counts(cli(['add', feature, '--no-install', '--no-migrate'], app, 1).stdout))
    console.log(`${feature.padEnd(20)} ${ACTIONS.map((action) => String(a![action]).padStart(8)).join(' ')} | ${ACTIONS.map((action) => String(b![action]).padStart(8)).join(' ')}`)
  }
} finally {
  rmSync(root, { recursive: true, force: true })
}
