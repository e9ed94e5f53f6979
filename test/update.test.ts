import { execFileSync } from 'node:child_process'
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { answersFromFlags, withDefaults } from '../src/cli/answers.js'
import { buildProgram } from '../src/cli/program.js'
import { renderProject } from '../src/generate/index.js'
import { GENERATOR, RECORD_FILE } from '../src/generate/record.js'
import { FEATURES, OPTIONS } from '../src/options.js'
import { listTree, runCli, tempDir } from './helpers/cli.js'
import { countingRandom } from './helpers/random.js'

/**
 * `update` and `add` as a user runs them: the built CLI, on an app it generated into a temporary
 * folder and committed with real git, put back to that first commit before each test. No
 * installs: `--no-install --no-migrate` throughout.
 */
const dir = tempDir('cca-update-')
const path = join(dir.path, 'app')
let initial = ''
let original = new Map<string, Buffer>()
afterAll(() => dir.remove())

const offline = ['--no-install', '--no-migrate']
const git = (...args: string[]) =>
  execFileSync('git', ['-c', 'user.name=Owner', '-c', 'user.email=owner@example.com', ...args], { cwd: path, encoding: 'utf8' })
const commit = (message: string) => {
  git('add', '-A')
  git('commit', '-q', '-m', message)
}
const update = (args: string[]) => runCli(['update', ...args, ...offline], { cwd: path })
const add = (features: string[]) => runCli(['add', ...features, ...offline], { cwd: path })
const edit = (file: string, change: (text: string) => string) => writeFileSync(join(path, file), change(readFileSync(join(path, file), 'utf8')))

/** Every file of the app but `.git/`, by path: what a byte-for-byte comparison compares. */
function tree(): Map<string, Buffer> {
  const files = listTree(path).filter((file) => !file.endsWith('/') && !file.startsWith('.git/'))
  return new Map(files.map((file) => [file, readFileSync(join(path, file))]))
}

function expectSameFiles(actual: Map<string, Buffer>, expected: Map<string, Buffer>) {
  expect([...actual.keys()]).toEqual([...expected.keys()])
  for (const [file, contents] of expected) expect(actual.get(file)!.equals(contents), file).toBe(true)
}

/** The answers the CLI takes from these flags, as a user's run would (npm, no user agent). */
function answersOf(args: string[]) {
  const flags = buildProgram().parse([...args, '--no-install', '--no-git'], { from: 'user' }).opts()
  return withDefaults(answersFromFlags(flags), { userAgent: undefined, gitAvailable: false })
}

/** The lines `update` printed for files: action → paths. */
function actions(stdout: string): Record<string, string[]> {
  const found: Record<string, string[]> = {}
  for (const match of stdout.matchAll(/^(updated|merged|created|deleted|conflict) +(\S+)/gm)) (found[match[1]!] ??= []).push(match[2]!)
  return found
}

/** The flags that turn a feature on, and off again (`--no-two-factor`, `--oauth none`). */
function featureFlags(name: string): { on: string[]; off: string[]; layer: boolean; needs: string[] } {
  const feature = FEATURES.find((known) => known.name === name)!
  const option = OPTIONS.find((row) => row.key === feature.key)!
  // A feature that needs others (sso needs teams) is added with them, and goes with them.
  const needed = (option.needs ?? []).map((key) => OPTIONS.find((row) => row.key === key)!)
  const needs = needed.map((row) => row.flag.slice(2))
  if (feature.value === undefined) {
    const on = [...needed.map((row) => row.flag), option.flag]
    const off = [...needed, option].map((row) => `--no-${row.flag.slice(2)}`)
    return { on, off, layer: option.layer !== undefined, needs }
  }
  return { on: [option.flag, feature.value], off: [option.flag, 'none'], layer: true, needs }
}

beforeAll(async () => {
  const created = await runCli([path, '--no-install', '--git', '--yes'])
  expect(created.code, created.stderr).toBe(0)
  initial = git('rev-parse', 'HEAD').trim()
  original = tree()
})

beforeEach(() => {
  // .env is ignored, so `clean` without -x keeps it, as a real app's stays.
  git('reset', '-q', '--hard', initial)
  git('clean', '-qfd')
})

describe('add on an app nobody edited', () => {
  it.each(FEATURES.map((feature) => feature.name))('add %s gives what a fresh generation gives; update without it gives back the same bytes', async (feature) => {
    const flags = featureFlags(feature)
    const added = await add([...flags.needs, feature])
    expect(added.code, added.stderr).toBe(0)
    expect(actions(added.stdout).conflict).toBeUndefined()
    const fresh = renderProject(answersOf(flags.on), 'app', { random: countingRandom() })
    const files = tree()
    // .env is the app's own (its secrets): update never touches it, so it is the one file that differs.
    fresh.delete('.env')
    files.delete('.env')
    expectSameFiles(files, fresh)

    commit(`add ${feature}`)
    const removed = await update(flags.off)
    expect(removed.code, removed.stderr).toBe(0)
    // A feature with a layer takes its files away; one without (e-mail verification) changes base's.
    expect(actions(removed.stdout).deleted !== undefined, removed.stdout).toBe(flags.layer)
    expectSameFiles(tree(), original)
  })

  it('refuses a feature without the ones it needs, in one line naming them', async () => {
    const refused = await add(['sso'])
    expect(refused.code).toBe(1)
    expect(refused.stderr.trim()).toBe('error: --sso needs --teams: add --teams, or leave --sso out')
    expectSameFiles(tree(), original)
  })

  it('says that removing a layer keeps its tables and data', async () => {
    expect((await add(['passkeys'])).code).toBe(0)
    commit('add passkeys')
    const { code, stdout } = await update(['--no-passkeys'])
    expect(code).toBe(0)
    expect(stdout).toContain('Removed passkeys: the code is gone, not the tables or their data, which stay in the database.')
    expect(existsSync(join(path, 'server/src/features/passkeys'))).toBe(false)
  })

  it('prints the variables .env now needs, with fresh values, and leaves .env alone', async () => {
    const { stdout } = await add(['two-factor'])
    expect(stdout).toMatch(/^Add to \.env \(update never touches it\):\n {2}ENCRYPTION_KEY=[0-9a-f]{64}$/m)
    expect(readFileSync(join(path, '.env')).equals(original.get('.env')!)).toBe(true)
  })

  it('has nothing to change in an app already made of these answers', async () => {
    expect((await add(['two-factor'])).code).toBe(0)
    commit('add two-factor')
    const { code, stdout } = await add(['two-factor'])
    expect(code).toBe(0)
    expect(stdout).toContain('Nothing to change')
    expect(git('status', '--porcelain')).toBe('')
  })
})

describe("the owner's edits", () => {
  it('survive an add: a controller, a page, package.json and a rendered file the layer changes', async () => {
    edit('server/src/features/sign-in/controllers/login.ts', (text) => `// Owner: audited 2026-01\n${text}`)
    edit('client/src/pages/DashboardPage.vue', (text) => text.replace('<template>', '<template>\n  <!-- owner: banner goes here -->'))
    edit('server/src/features/index.ts', (text) => `// Owner: keep this registry short\n${text}`)
    edit('package.json', (text) => {
      const pkg = JSON.parse(text)
      pkg.scripts.lint = 'eslint .'
      // As npm install writes them: in order by name.
      pkg.dependencies = Object.fromEntries(Object.entries({ ...pkg.dependencies, 'left-pad': '1.3.0' }).sort(([a], [b]) => (a < b ? -1 : 1)))
      pkg.devDependencies.vitest = '0.0.1-owner'
      return `${JSON.stringify(pkg, null, 2)}\n`
    })
    const ownFile = 'server/src/features/two-factor/NOTES.md'
    mkdirSync(join(path, 'server/src/features/two-factor'), { recursive: true })
    writeFileSync(join(path, ownFile), 'mine\n')
    commit('owner edits')

    const { code, stdout, stderr } = await add(['two-factor'])
    expect(code, stderr).toBe(0)
    const done = actions(stdout)
    expect(done.merged).toEqual(['package.json', 'server/src/features/index.ts'])
    expect(stdout).toMatch(/^merged {3}package\.json$/m)
    expect(done.created).toContain('server/src/features/two-factor/index.ts')
    expect(Object.values(done).flat()).not.toContain(ownFile)

    expect(readFileSync(join(path, 'server/src/features/sign-in/controllers/login.ts'), 'utf8')).toMatch(/^\/\/ Owner: audited 2026-01\n/)
    expect(readFileSync(join(path, 'client/src/pages/DashboardPage.vue'), 'utf8')).toContain('<!-- owner: banner goes here -->')
    const registry = readFileSync(join(path, 'server/src/features/index.ts'), 'utf8')
    expect(registry).toMatch(/^\/\/ Owner: keep this registry short\n/)
    expect(registry).toContain('two-factor')
    const pkg = JSON.parse(readFileSync(join(path, 'package.json'), 'utf8'))
    expect(pkg.scripts.lint).toBe('eslint .')
    expect(pkg.dependencies['left-pad']).toBe('1.3.0')
    expect(pkg.dependencies.otpauth).toBeDefined()
    expect(pkg.devDependencies.vitest).toBe('0.0.1-owner')
    expect(Object.keys(pkg.dependencies)).toEqual(Object.keys(pkg.dependencies).sort())
    expect(readFileSync(join(path, ownFile), 'utf8')).toBe('mine\n')

    // Taken away again, the layer leaves the owner's file in its folder and the owner's keys in package.json.
    commit('add two-factor')
    const removed = await update(['--no-two-factor'])
    expect(removed.code, removed.stderr).toBe(0)
    expect(readFileSync(join(path, ownFile), 'utf8')).toBe('mine\n')
    expect(existsSync(join(path, 'server/src/features/two-factor/index.ts'))).toBe(false)
    const back = JSON.parse(readFileSync(join(path, 'package.json'), 'utf8'))
    expect(back.dependencies.otpauth).toBeUndefined()
    expect(back.dependencies['left-pad']).toBe('1.3.0')
  })

  it('a line both sides changed is a conflict in that file only; exit 1, the rest merged, the record updated', async () => {
    const auth = 'server/src/kernel/config/auth.ts'
    edit(auth, (text) => text.replace("name: 'app',", "name: 'mine',"))
    // The cookie's name shows in the docs' settings table: an owner's note there merges.
    const readme = 'docs/configuration.md'
    edit(readme, (text) => `${text}\n## Our notes\n`)
    commit('owner edits')

    const { code, stdout, stderr } = await update(['--cookie-name', 'acme'])
    expect(code).toBe(1)
    expect(actions(stdout)).toEqual({ conflict: [auth], merged: [readme], updated: ['.env.example', RECORD_FILE, 'docs/security.md'] })
    expect(stderr.trim()).toBe(
      `error: conflicts in ${auth}:\n  ${auth}: changed here and by the new version in the same lines; resolve the conflict markers (git diff shows them)\nthen commit the result`,
    )
    expect(readFileSync(join(path, auth), 'utf8')).toContain(
      `<<<<<<< yours\n  name: 'mine',\n=======\n  name: 'acme',\n>>>>>>> ${GENERATOR.name}@${GENERATOR.version}\n`,
    )
    // A marker starts its line, as git writes and finds them (the README names one in its prose).
    const withMarkers = [...tree()].filter(([, contents]) => /^<<<<<<< /m.test(contents.toString('utf8'))).map(([file]) => file)
    expect(withMarkers).toEqual([auth])
    expect(readFileSync(join(path, readme), 'utf8')).toMatch(/`acme_access`[\s\S]*## Our notes\n$/)
    expect(JSON.parse(readFileSync(join(path, RECORD_FILE), 'utf8')).answers.cookieName).toBe('acme')
  })

  it('a generated file the owner deleted stays deleted when the update leaves it as it was', async () => {
    rmSync(join(path, 'e2e'), { recursive: true })
    commit('no browser tests')
    const { code, stdout } = await add(['passkeys'])
    expect(code).toBe(0)
    expect(existsSync(join(path, 'e2e/account.test.ts'))).toBe(false)
    // The layer's own browser test is new, not the owner's to have deleted.
    expect(actions(stdout).created).toContain('e2e/passkeys.test.ts')
  })
})

describe('refusals', () => {
  it('refuses a work tree with uncommitted changes, untracked files included, and writes nothing', async () => {
    for (const dirty of [() => writeFileSync(join(path, 'README.md'), 'changed\n'), () => writeFileSync(join(path, 'scratch.txt'), 'new\n')]) {
      git('reset', '-q', '--hard', initial)
      git('clean', '-qfd')
      dirty()
      const status = git('status', '--porcelain')
      const { code, stdout, stderr } = await add(['two-factor'])
      expect(code).toBe(1)
      expect(stderr).toBe(`error: ${path} has uncommitted changes: commit or stash first\n`)
      expect(stdout).toBe('')
      expect(git('status', '--porcelain')).toBe(status)
    }
  })

  it('refuses an app without cookie-auth.json', async () => {
    rmSync(join(path, RECORD_FILE))
    commit('no record')
    const { code, stderr } = await update([])
    expect(code).toBe(1)
    expect(stderr).toBe(`error: no ${RECORD_FILE} in ${path}: update and add work on an app that create-cookie-auth-app made and recorded there\n`)
  })

  it('refuses a record that is not one, naming what is wrong', async () => {
    const record = JSON.parse(readFileSync(join(path, RECORD_FILE), 'utf8'))
    record.answers.accessTtl = 'soon'
    writeFileSync(join(path, RECORD_FILE), JSON.stringify(record))
    commit('broken record')
    const { code, stderr } = await update([])
    expect(code).toBe(1)
    expect(stderr).toBe(`error: ${RECORD_FILE} is invalid: answers.accessTtl "soon": expected a number\n`)
  })

  it.each([
    [['--db', 'postgres'], 'error: --db cannot be changed by update: moving data between databases is not a template change'],
    [['--cookie-name', 'a b'], 'error: --cookie-name "a b" is invalid: use a letter followed by up to 31 letters, digits, _ or -'],
    [['--access-ttl', '2h'], 'error: --access-ttl "2h" is invalid: must be shorter than the refresh token life (1h)'],
    [['--cwd', 'nowhere'], 'error: --cwd "nowhere" is invalid: no such folder'],
  ])('update %j exits 1 with one line and writes nothing', async (args, message) => {
    const { code, stdout, stderr } = await update(args)
    expect(code).toBe(1)
    expect(stderr).toBe(`${message}\n`)
    expect(stdout).toBe('')
    expect(git('status', '--porcelain')).toBe('')
  })

  it('refuses an option put before the command, which would go unused', async () => {
    const { code, stdout, stderr } = await runCli(['--two-factor', 'update', ...offline], { cwd: path })
    expect(code).toBe(1)
    expect(stderr).toBe('error: --two-factor is invalid before update: options go after the command (create-cookie-auth-app update [options])\n')
    expect(stdout).toBe('')
  })

  it('add names the features it knows when given another', async () => {
    const { code, stderr } = await add(['billing'])
    expect(code).toBe(1)
    expect(stderr).toBe(`error: feature "billing" is invalid: use ${FEATURES.map((feature) => feature.name).join(', ')}\n`)
    expect(FEATURES.map((feature) => feature.name)).toEqual(['email-verification', 'two-factor', 'passkeys', 'oauth-github', 'oauth-google', 'oauth-oidc', 'teams', 'api-keys', 'oauth-provider', 'sso', 'passwordless', 'captcha-cap', 'captcha-turnstile', 'captcha-hcaptcha'])
  })

  it('--dry-run prints the plan and writes nothing', async () => {
    const { code, stdout } = await runCli(['add', 'passkeys', '--dry-run', '--cwd', path, ...offline], { cwd: dir.path })
    expect(code).toBe(0)
    expect(stdout).toContain('created  server/src/features/passkeys/index.ts\n')
    expect(stdout).toContain('updated  cookie-auth.json\n')
    expect(stdout).toContain('Dry run: nothing was written.')
    expect(git('status', '--porcelain', '--ignored')).toBe('!! .env\n')
  })
})
