import { execFileSync } from 'node:child_process'
import { mkdirSync, readFileSync, renameSync, rmSync, symlinkSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { RECORD_FILE, sha256 } from '../src/generate/record.js'
import { listTree, runCli, tempDir } from './helpers/cli.js'

/**
 * `update` and `add` stay inside the app: a path of cookie-auth.json that leads out of it, or a
 * link committed in the app, is refused before anything is read through it or written. The built
 * CLI on a generated app committed with real git, as in update.test.ts; `outside/` sits beside
 * the app, where nothing may reach.
 */
const dir = tempDir('cca-update-paths-')
const path = join(dir.path, 'app')
const outside = join(dir.path, 'outside')
let initial = ''
afterAll(() => dir.remove())

const offline = ['--no-install', '--no-migrate']
const git = (...args: string[]) =>
  execFileSync('git', ['-c', 'user.name=Owner', '-c', 'user.email=owner@example.com', ...args], { cwd: path, encoding: 'utf8' })
const commit = (message: string) => {
  git('add', '-A')
  git('commit', '-q', '-m', message)
}
const update = (args: string[]) => runCli(['update', ...args, ...offline], { cwd: path })

/** Every file below `outside/` with its bytes: what must come through unchanged. */
const outsideFiles = () => new Map(listTree(outside).filter((file) => !file.endsWith('/')).map((file) => [file, readFileSync(join(outside, file), 'utf8')]))

function recordFile(file: string, contents: Buffer) {
  const record = JSON.parse(readFileSync(join(path, RECORD_FILE), 'utf8'))
  record.files[file] = sha256(contents)
  writeFileSync(join(path, RECORD_FILE), `${JSON.stringify(record, null, 2)}\n`)
  commit(`record ${file}`)
}

beforeAll(async () => {
  const created = await runCli([path, '--no-install', '--git', '--yes'])
  expect(created.code, created.stderr).toBe(0)
  initial = git('rev-parse', 'HEAD').trim()
})

beforeEach(() => {
  git('reset', '-q', '--hard', initial)
  git('clean', '-qfd')
  rmSync(outside, { recursive: true, force: true })
  mkdirSync(outside)
})

describe('paths of cookie-auth.json', () => {
  it('refuses a ../ path whose file matches its hash, and leaves that file where it is', async () => {
    const contents = Buffer.from('not the app’s\n')
    writeFileSync(join(dir.path, 'outside.txt'), contents)
    recordFile('../outside.txt', contents)

    const { code, stdout, stderr } = await update([])
    expect(code).toBe(1)
    expect(stderr).toBe(`error: ${RECORD_FILE} is invalid: files["../outside.txt"] is not a path inside the app\n`)
    expect(stdout).toBe('')
    expect(readFileSync(join(dir.path, 'outside.txt'), 'utf8')).toBe('not the app’s\n')
  })

  it('refuses an absolute path, which would tell whether that file exists', async () => {
    const file = join(outside, 'secret.txt')
    writeFileSync(file, 'secret\n')
    recordFile(file, Buffer.from('secret\n'))

    const { code, stdout, stderr } = await update(['--cookie-name', 'acme'])
    expect(code).toBe(1)
    expect(stderr).toBe(`error: ${RECORD_FILE} is invalid: files[${JSON.stringify(file)}] is not a path inside the app\n`)
    expect(stdout).toBe('')
    expect(git('status', '--porcelain')).toBe('')
  })
})

describe('links committed in the app', () => {
  it('refuses a generated file that is a link out of the app, and writes nothing through it', async () => {
    writeFileSync(join(outside, 'notes.md'), 'my notes\n')
    rmSync(join(path, 'README.md'))
    symlinkSync('../outside/notes.md', join(path, 'README.md'))
    commit('README is our notes')

    // A new cookie name changes README.md.
    const { code, stdout, stderr } = await update(['--cookie-name', 'acme'])
    expect(code).toBe(1)
    expect(stderr).toBe('error: README.md is a symbolic link: update and add write only inside the app, never through a link\n')
    expect(stdout).toBe('')
    expect(outsideFiles()).toEqual(new Map([['notes.md', 'my notes\n']]))
    expect(git('status', '--porcelain')).toBe('')
  })

  it('refuses a folder on the way to generated files that is a link out of the app', async () => {
    renameSync(join(path, 'server'), join(outside, 'server'))
    symlinkSync('../outside/server', join(path, 'server'))
    commit('server lives elsewhere')
    const before = outsideFiles()

    // A new cookie name changes server/src/kernel/config/auth.ts; two-factor adds a folder of server files.
    for (const run of [() => update(['--cookie-name', 'acme']), () => runCli(['add', 'two-factor', ...offline], { cwd: path })]) {
      const { code, stdout, stderr } = await run()
      expect(code).toBe(1)
      expect(stderr).toBe('error: server is a symbolic link: update and add write only inside the app, never through a link\n')
      expect(stdout).toBe('')
      expect(outsideFiles()).toEqual(before)
      expect(git('status', '--porcelain')).toBe('')
    }
  })

  it('refuses the record itself as a link', async () => {
    renameSync(join(path, RECORD_FILE), join(outside, RECORD_FILE))
    symlinkSync(`../outside/${RECORD_FILE}`, join(path, RECORD_FILE))
    commit('record elsewhere')
    const before = outsideFiles()

    const { code, stderr } = await update(['--cookie-name', 'acme'])
    expect(code).toBe(1)
    expect(stderr).toBe(`error: ${RECORD_FILE} is a symbolic link: update and add write only inside the app, never through a link\n`)
    expect(outsideFiles()).toEqual(before)
  })
})
