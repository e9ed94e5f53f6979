import { execFileSync, spawn } from 'node:child_process'
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { Ajv } from 'ajv'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { GENERATOR } from '../src/generate/record.js'
import { OPTIONS, isBoolean } from '../src/options.js'
import { envVariables } from '../src/update/env.js'
import { BIN, listTree, runCli, tempDir, userEnv } from './helpers/cli.js'

/**
 * The machine interface: `--json` on create, `add` and `update`, and `options --json`, each
 * document validated against the schema the package ships; dry runs; a run without a TTY.
 */
const schema = (name: string) => JSON.parse(readFileSync(new URL(`../schema/${name}`, import.meta.url), 'utf8')) as object
const ajv = new Ajv({ allErrors: true, strict: true, allowUnionTypes: true })
const validResult = ajv.compile(schema('result.schema.json'))
const validOptions = ajv.compile(schema('options.schema.json'))

interface Result {
  ok: boolean
  command: string
  directory: string | null
  answers: Record<string, unknown> | null
  files: { path: string; action: string; note?: string }[]
  env: { name: string; value: string | null; why: string }[]
  next: string[]
  conflicts: { path: string; happened: string; todo: string }[]
  warnings: string[]
  error: { message: string; flag?: string } | null
}

/** stdout as one JSON document that the schema accepts: nothing before or after it. */
function parsed(stdout: string): Result {
  const document = JSON.parse(stdout) as Result
  expect(validResult(document), JSON.stringify(validResult.errors)).toBe(true)
  return document
}

const dir = tempDir('cca-json-')
afterAll(() => dir.remove())
const quiet = ['--no-install', '--no-git']

describe('create --json', () => {
  it('prints one document: every file written, the .env variables without their secrets, the next steps', async () => {
    const target = join(dir.path, 'made')
    const { code, stdout, stderr } = await runCli([target, '--json', ...quiet, '--two-factor'])
    expect(code, stderr).toBe(0)
    const result = parsed(stdout)
    expect(result).toMatchObject({ ok: true, command: 'create', version: GENERATOR.version, directory: target, error: null, conflicts: [] })
    expect(result.answers).toMatchObject({ db: 'sqlite', twoFactor: true, install: false })
    const written = listTree(target).filter((file) => !file.endsWith('/'))
    expect(result.files.map((file) => file.path).sort()).toEqual(written)
    expect(new Set(result.files.map((file) => file.action))).toEqual(new Set(['created']))
    // The progress a person reads went to stderr.
    expect(stderr).toContain('Scaffolded')
    const env = envVariables(readFileSync(join(target, '.env')))
    expect(result.env.map((entry) => entry.name)).toEqual([...env.keys()])
    for (const name of ['JWT_ACCESS_SECRET', 'JWT_REFRESH_SECRET', 'COOKIE_SECRET', 'ENCRYPTION_KEY']) {
      expect(result.env.find((entry) => entry.name === name)).toMatchObject({ value: null })
      expect(stdout).not.toContain(env.get(name)!)
    }
    expect(result.env.find((entry) => entry.name === 'PORT')).toMatchObject({ value: '3000' })
    expect(result.next[0]).toMatch(/^cd .*made$/)
    expect(result.next.slice(1)).toEqual(['npm install', 'npm run dev'])
  })

  it.each([
    [['--db', 'oracle'], '--db'],
    [['--access-ttl', '2h'], '--access-ttl'],
    [['--frobnicate'], '--frobnicate'],
  ])('%j: exit 1, ok false, the flag to blame, nothing written', async (args, flag) => {
    const target = join(dir.path, 'refused')
    const { code, stdout } = await runCli([target, '--json', ...quiet, ...args])
    expect(code).toBe(1)
    const result = parsed(stdout)
    expect(result).toMatchObject({ ok: false, command: 'create', error: { flag } })
    expect(result.error!.message).toContain(flag)
    expect(existsSync(target)).toBe(false)
  })

  it('a non-empty folder without --force: exit 1, ok false, nothing touched', async () => {
    const target = join(dir.path, 'full')
    mkdirSync(target)
    writeFileSync(join(target, 'keep.txt'), 'mine')
    const { code, stdout } = await runCli([target, '--json', ...quiet])
    expect(code).toBe(1)
    expect(parsed(stdout)).toMatchObject({ ok: false, error: { message: expect.stringContaining('--force') } })
    expect(listTree(target)).toEqual(['keep.txt'])
  })

  it('--dry-run lists the files it would write and writes nothing, as text and as JSON', async () => {
    const target = join(dir.path, 'dry')
    const json = await runCli([target, '--json', '--dry-run', ...quiet, '--teams'])
    expect(json.code, json.stderr).toBe(0)
    const result = parsed(json.stdout)
    expect(result.ok).toBe(true)
    expect(result.files.map((file) => file.path)).toContain('server/src/features/teams/index.ts')
    const text = await runCli([target, '--dry-run', ...quiet, '--teams'])
    expect(text.code, text.stderr).toBe(0)
    expect(text.stdout).toContain(`Dry run: would write ${result.files.length} files in ${target}; nothing was written.`)
    for (const file of result.files) expect(text.stdout).toContain(`  ${file.path}\n`)
    expect(existsSync(target)).toBe(false)
  })
})

describe('add and update --json', () => {
  const app = join(dir.path, 'app')
  let initial = ''
  const git = (...args: string[]) =>
    execFileSync('git', ['-c', 'user.name=Owner', '-c', 'user.email=owner@example.com', ...args], { cwd: app, encoding: 'utf8' })
  const commit = (message: string) => {
    git('add', '-A')
    git('commit', '-q', '-m', message)
  }
  const run = (args: string[]) => runCli([...args, '--json', '--no-install', '--no-migrate'], { cwd: app })

  beforeAll(async () => {
    const created = await runCli([app, '--no-install', '--git', '--yes'])
    expect(created.code, created.stderr).toBe(0)
    initial = git('rev-parse', 'HEAD').trim()
  })
  beforeEach(() => {
    git('reset', '-q', '--hard', initial)
    git('clean', '-qfd')
  })

  it('add: the files it changed, the .env variable to add (no secret printed), ok', async () => {
    const { code, stdout, stderr } = await run(['add', 'two-factor'])
    expect(code, stderr).toBe(0)
    const result = parsed(stdout)
    expect(result).toMatchObject({ ok: true, command: 'add', directory: app, error: null, conflicts: [] })
    expect(result.answers).toMatchObject({ twoFactor: true })
    expect(result.files).toContainEqual({ path: 'server/src/features/two-factor/index.ts', action: 'created' })
    expect(result.env).toEqual([{ name: 'ENCRYPTION_KEY', value: null, why: expect.stringContaining('a secret') }])
    expect(stderr).toMatch(/ENCRYPTION_KEY=\S+/)
    expect(result.next).toContain('npm install')
  })

  it('add: an unknown feature is a refusal', async () => {
    const { code, stdout } = await run(['add', 'blockchain'])
    expect(code).toBe(1)
    expect(parsed(stdout)).toMatchObject({ ok: false, command: 'add', error: { message: expect.stringContaining('blockchain') } })
  })

  it('update: a changed answer, ok', async () => {
    const { code, stdout, stderr } = await run(['update', '--cookie-name', 'acme'])
    expect(code, stderr).toBe(0)
    const result = parsed(stdout)
    expect(result).toMatchObject({ ok: true, command: 'update', answers: { cookieName: 'acme' } })
    expect(result.files.map((file) => file.action)).toContain('updated')
  })

  it('update --dry-run: the plan, nothing written', async () => {
    const { code, stdout } = await run(['update', '--dry-run', '--passkeys'])
    expect(code).toBe(0)
    const result = parsed(stdout)
    expect(result.files).toContainEqual({ path: 'server/src/features/passkeys/index.ts', action: 'created' })
    expect(existsSync(join(app, 'server/src/features/passkeys'))).toBe(false)
    expect(git('status', '--porcelain')).toBe('')
  })

  it('update with a conflict: exit 1, each conflicted file with what happened and what to do', async () => {
    expect((await run(['add', 'two-factor'])).code).toBe(0)
    commit('two-factor')
    const edited = 'server/src/features/two-factor/index.ts'
    writeFileSync(join(app, edited), `${readFileSync(join(app, edited), 'utf8')}// ours\n`)
    const auth = 'server/src/kernel/config/auth.ts'
    writeFileSync(join(app, auth), readFileSync(join(app, auth), 'utf8').replace("name: 'app',", "name: 'mine',"))
    commit('owner edits')

    const { code, stdout, stderr } = await run(['update', '--no-two-factor', '--cookie-name', 'acme'])
    expect(code).toBe(1)
    const result = parsed(stdout)
    expect(result.ok).toBe(false)
    expect(result.conflicts).toEqual([
      { path: edited, happened: expect.stringContaining('removed by'), todo: expect.stringContaining('no markers') },
      { path: auth, happened: expect.any(String), todo: expect.stringContaining('git diff shows them') },
    ].sort((a, b) => (a.path < b.path ? -1 : 1)))
    // The text says per file what to do: markers only where there are any.
    const lines = stderr.trim().split('\n')
    expect(lines.find((line) => line.includes(edited))).not.toContain('git diff')
    expect(lines.find((line) => line.startsWith(`  ${auth}:`))).toContain('git diff shows them')
  })

  it('update on a dirty work tree: a refusal', async () => {
    writeFileSync(join(app, 'scratch.txt'), 'uncommitted')
    const { code, stdout } = await run(['update', '--two-factor'])
    expect(code).toBe(1)
    expect(parsed(stdout)).toMatchObject({ ok: false, command: 'update', directory: app, error: { message: expect.stringContaining('commit or stash') } })
  })

  it('update --db: a refusal naming the flag', async () => {
    const { code, stdout } = await run(['update', '--db', 'mysql'])
    expect(code).toBe(1)
    expect(parsed(stdout)).toMatchObject({ ok: false, error: { flag: '--db' } })
  })
})

describe('options --json', () => {
  it('prints the options table, one row per option, as the schema says', async () => {
    const { code, stdout } = await runCli(['options', '--json'])
    expect(code).toBe(0)
    const document = JSON.parse(stdout) as { options: { flag: string; negation: string | null; prompt: string | null; generates: string }[] }
    expect(validOptions(document), JSON.stringify(validOptions.errors)).toBe(true)
    expect(document.options.map((option) => option.flag)).toEqual(OPTIONS.map((option) => option.flag))
    for (const [at, option] of OPTIONS.entries()) {
      expect(document.options[at]).toMatchObject({ negation: isBoolean(option) ? `--no-${option.flag.slice(2)}` : null, generates: option.readme })
    }
  })
})

describe('without a person at the keyboard', () => {
  it('no TTY, no --yes, no CI: finishes on its own with stdin left open', async () => {
    const target = join(dir.path, 'unattended')
    const { code, stderr } = await runCli([target, ...quiet], { stdinOpen: true, env: userEnv() })
    expect(code, stderr).toBe(0)
    expect(existsSync(join(target, 'package.json'))).toBe(true)
  })

  it.each([[['--help']], [['options', '--json']]])('%j into a closed pipe ends quietly with status 0', async (args) => {
    // The reader is gone before the first write, as `| head -1` is once it has its line.
    const child = spawn(process.execPath, [BIN, ...args], { stdio: ['ignore', 'pipe', 'pipe'] })
    child.stdout.destroy()
    let stderr = ''
    child.stderr.on('data', (chunk) => (stderr += chunk))
    const code = await new Promise((resolve) => child.on('close', resolve))
    expect(stderr).toBe('')
    expect(code).toBe(0)
  })

  it('--help: each --no- line is its own sentence, not "do not" and the description', async () => {
    const { stdout } = await runCli(['--help'])
    for (const option of OPTIONS.filter(isBoolean)) {
      expect(option.negated, option.flag).toBeTruthy()
      expect(stdout.replace(/\s+/g, ' ')).toContain(`--no-${option.flag.slice(2)} ${option.negated}`)
    }
    expect(stdout).not.toMatch(/do not teams/)
  })
})
