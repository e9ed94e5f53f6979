import { execFileSync, spawnSync } from 'node:child_process'
import { readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { parseEnv } from 'node:util'
import { describe, expect, it, onTestFinished } from 'vitest'
import { parse } from 'yaml'
import { MANAGERS, NEWEST_NODE } from '../scripts/lib/toolchains.js'
import { renderProject } from '../src/generate/index.js'
import { type Answers, DATABASES, PACKAGE_MANAGERS, type PackageManager } from '../src/options.js'
import { VARIANT_IDS, variantAnswers } from '../src/variants.js'
import { actionlint } from './helpers/actionlint.js'
import { tempDir } from './helpers/cli.js'
import { countingRandom } from './helpers/random.js'

const WORKFLOW = '.github/workflows/ci.yml'
const DEPENDABOT = '.github/dependabot.yml'
/** Where the generated README marks the list of what its CI runs. */
const README_MARK = '<!-- ci: the run steps of .github/workflows/ci.yml, in order -->'

interface Step {
  name?: string
  uses?: string
  run?: string
  with?: Record<string, string | number>
}
interface Workflow {
  jobs: Record<string, { services?: Record<string, { image: string; ports?: string[] }>; env?: Record<string, string>; steps: Step[] }>
}

/**
 * Every variant `npm test` runs (on npm, the package manager the variants use), and each other
 * package manager on each database: the workflow varies by those two.
 */
const CASES: { label: string; answers: Answers }[] = [
  ...VARIANT_IDS.map((id) => ({ label: id, answers: variantAnswers(id) })),
  ...PACKAGE_MANAGERS.filter((pm) => pm !== 'npm').flatMap((pm) =>
    DATABASES.map((db) => ({ label: `${db} on ${pm}`, answers: { ...variantAnswers(db), pm } })),
  ),
]

function render(answers: Answers) {
  const files = renderProject(answers, 'my-app', { random: countingRandom() })
  const text = (path: string) => {
    const contents = files.get(path)
    if (!contents) throw new Error(`${path} was not generated`)
    return contents.toString('utf8')
  }
  return { files, text }
}

/** The lines of the fenced block that follows the README's mark. */
function readmeCommands(readme: string): string[] {
  const start = readme.indexOf(README_MARK)
  if (start < 0) throw new Error(`the README has no "${README_MARK}"`)
  const block = /^```sh\n([\s\S]*?)^```$/m.exec(readme.slice(start + README_MARK.length))
  if (!block) throw new Error('no ```sh block follows the mark')
  return block[1]!.split('\n').filter((line) => line.trim() !== '')
}

const majorOf = (version: string) => version.replace(/^[^@]*@/, '').split('.')[0]
/** The major version of the manager that `test:install` proves with that label. */
const provenMajor = (label: string) => majorOf(MANAGERS.find((manager) => manager.label === label)!.spec!)

describe.each(CASES)('the CI of $label', ({ answers }) => {
  const { text } = render(answers)
  const workflowText = text(WORKFLOW)
  const workflow = parse(workflowText) as Workflow
  const [job, ...otherJobs] = Object.values(workflow.jobs)
  const steps = job!.steps

  it('passes actionlint', async () => {
    expect(await actionlint(workflowText)).toEqual([])
  })

  it('runs exactly the commands the README lists, in its order', () => {
    expect(otherJobs).toEqual([])
    const runs = steps.flatMap((step) => (step.run === undefined ? [] : [step.run]))
    expect(runs).toEqual(readmeCommands(text('README.md')))
  })

  it("runs scripts that the app's package.json has, through its package manager", () => {
    const scripts = Object.keys((JSON.parse(text('package.json')) as { scripts: Record<string, string> }).scripts)
    const prefix = answers.pm === 'yarn' ? 'yarn ' : `${answers.pm} run `
    const scriptRuns = steps.filter((step) => step.run?.startsWith(prefix) && !/^yarn install\b/.test(step.run))
    const named = scriptRuns.map((step) => step.run!.slice(prefix.length))
    expect(named).toEqual(['db:migrate', 'typecheck', 'test', 'build', 'test:e2e'])
    for (const script of named) expect(scripts).toContain(script)
  })

  it('starts the database of .env.example, and Redis, as services', () => {
    const services = Object.values(job!.services ?? {})
    const databaseUrl = parseEnv(text('.env.example')).DATABASE_URL!
    const redisUrl = new URL(job!.env!.TEST_REDIS_URL!)
    const published = services.flatMap((service) => service.ports ?? [])
    if (answers.db === 'sqlite') {
      expect(databaseUrl).toMatch(/^sqlite:/)
      expect(services.map((service) => service.image.split(':')[0])).toEqual(['redis'])
    } else {
      const url = new URL(databaseUrl)
      expect(url.hostname).toBe('127.0.0.1')
      expect(services.map((service) => service.image.split(':')[0])).toEqual([answers.db === 'mysql' ? 'mariadb' : 'postgres', 'redis'])
      expect(published).toContain(`${url.port}:${url.port}`)
    }
    expect(published).toContain(`${redisUrl.port}:${redisUrl.port}`)
    expect(workflowText.match(/--health-cmd=/g)).toHaveLength(services.length)
  })

  it("sets only variables the app's tests read: the browser's path and Redis's address", () => {
    const reads = (path: string, name: string) => expect(text(path), `${path} reads ${name}`).toContain(`process.env.${name}`)
    expect(Object.keys(job!.env!)).toEqual(['TEST_REDIS_URL', 'CHROMIUM_PATH'])
    reads('server/tests/setup/global-setup.ts', 'TEST_REDIS_URL')
    reads('e2e/support/browser.ts', 'CHROMIUM_PATH')
  })

  it('sets up the Node line and the package manager that the generator proves', () => {
    const uses = (action: string) => steps.find((step) => step.uses?.startsWith(`${action}@`))
    expect(String(uses('actions/setup-node')?.with?.['node-version'])).toBe(majorOf(NEWEST_NODE))
    const setups: Record<PackageManager, () => void> = {
      npm: () => expect(steps.map((step) => step.run)).toContain('npm ci'),
      pnpm: () => expect(String(uses('pnpm/action-setup')?.with?.version)).toBe(provenMajor('pnpm 10')),
      bun: () => expect(String(uses('oven-sh/setup-bun')?.with?.['bun-version'])).toBe(provenMajor('bun 1')),
      // yarn 1 or yarn 4, whichever installed the app: Corepack runs the one package.json names.
      yarn: () => expect(steps.find((step) => step.run !== undefined)?.run).toBe('corepack enable'),
    }
    setups[answers.pm]()
  })

  it('has dependabot update the dependencies and the actions', () => {
    const config = parse(text(DEPENDABOT)) as { version: number; updates: { 'package-ecosystem': string; directory: string; schedule: { interval: string } }[] }
    expect(config.version).toBe(2)
    expect(config.updates.map((update) => update['package-ecosystem'])).toEqual([answers.pm === 'bun' ? 'bun' : 'npm', 'github-actions'])
    for (const update of config.updates) {
      expect(update.directory).toBe('/')
      expect(update.schedule.interval).toBe('weekly')
    }
  })
})

describe('the CI checks', () => {
  it('would catch a broken workflow: actionlint reports a mistake', async () => {
    const { text } = render(variantAnswers('sqlite'))
    const broken = text(WORKFLOW).replace('runs-on: ubuntu-24.04', 'runs-on: ${{ matrix.os }}')
    expect(broken).not.toBe(text(WORKFLOW))
    expect(await actionlint(broken)).toEqual([expect.stringMatching(/property "os" is not defined/)])
  })

  it("writes .env from .env.example with a fresh secret for each, as the README's line does, and never replaces one", () => {
    const { text } = render(variantAnswers('postgres-2fa-passkeys-redis'))
    const line = readmeCommands(text('README.md')).find((command) => command.startsWith('node -e '))!
    const { path: dir, remove } = tempDir()
    onTestFinished(remove)
    writeFileSync(join(dir, '.env.example'), text('.env.example'))
    execFileSync('sh', ['-c', line], { cwd: dir })

    const example = parseEnv(text('.env.example'))
    const written = parseEnv(readFileSync(join(dir, '.env'), 'utf8'))
    const placeholders = Object.keys(example).filter((name) => example[name] === 'change-me')
    expect(placeholders).toEqual(expect.arrayContaining(['JWT_ACCESS_SECRET', 'JWT_REFRESH_SECRET', 'COOKIE_SECRET', 'ENCRYPTION_KEY']))
    for (const name of Object.keys(example)) {
      if (placeholders.includes(name)) expect(written[name], name).toMatch(/^[0-9a-f]{64}$/)
      else expect(written[name], name).toBe(example[name])
    }
    expect(new Set(placeholders.map((name) => written[name])).size).toBe(placeholders.length)

    const again = spawnSync('sh', ['-c', line], { cwd: dir })
    expect(again.status).not.toBe(0)
    expect(parseEnv(readFileSync(join(dir, '.env'), 'utf8'))).toEqual(written)
  })
})
