import { execFileSync } from 'node:child_process'
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { OPTIONS, isBoolean } from '../src/options.js'
import { listTree, runCli, tempDir, userEnv } from './helpers/cli.js'

let dir: ReturnType<typeof tempDir>
beforeEach(() => {
  dir = tempDir()
})
afterEach(() => dir.remove())

const quiet = ['--no-install', '--no-git']

describe('--help and --version', () => {
  it('lists every option of the table, both forms of booleans, and exits 0', async () => {
    const { code, stdout } = await runCli(['--help'])
    expect(code).toBe(0)
    for (const option of OPTIONS) {
      expect(stdout).toContain(option.valueName ? `${option.flag} ${option.valueName}` : option.flag)
      if (isBoolean(option)) expect(stdout).toContain(`--no-${option.flag.slice(2)}`)
    }
    for (const flag of ['--force', '-y, --yes', '-h, --help', '-V, --version']) expect(stdout).toContain(flag)
  })

  it('prints the package version', async () => {
    const { code, stdout } = await runCli(['-V'])
    expect(code).toBe(0)
    expect(stdout.trim()).toBe(JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')).version)
  })
})

describe('invalid values', () => {
  it.each([
    [['--db', 'oracle'], '--db "oracle" is invalid: use sqlite or mysql or postgres'],
    [['--access-ttl', 'soon'], '--access-ttl "soon" is invalid: use whole seconds (900) or a number with s, m, h or d (15m, 30d)'],
    [['--refresh-ttl', '0'], '--refresh-ttl "0" is invalid'],
    [['--remember-ttl', '2w'], '--remember-ttl "2w" is invalid'],
    [['--access-ttl', '2h'], '--access-ttl "2h" is invalid: must be shorter than the refresh token life (1h)'],
    [['--refresh-ttl', '10m'], '--refresh-ttl "10m" is invalid: must be longer than the access token life (15m)'],
    [['--remember-ttl', '30m'], '--remember-ttl "30m" is invalid: must be at least the refresh token life (1h)'],
    [['--cookie-name', '_x'], '--cookie-name "_x" is invalid: use a letter followed by up to 31 letters, digits, _ or -'],
    [['--cookie-name', 'a b'], '--cookie-name "a b" is invalid'],
    [['--pm', 'pip'], '--pm "pip" is invalid: use npm or pnpm or yarn or bun'],
    [['--captcha', 'foo'], '--captcha "foo" is invalid: use none or cap or turnstile or hcaptcha'],
    // A row that needs another (the options table's `needs`): refused while the other is off.
    [['--sso'], 'error: --sso needs --teams: add --teams, or leave --sso out'],
    [['--sso', '--no-teams'], 'error: --sso needs --teams'],
    [['--frobnicate'], "error: unknown option '--frobnicate'"],
    [['--db'], "error: option '--db <sqlite|mysql|postgres>' argument missing"],
  ])('%j exits 1 with one line and writes nothing', async (args, message) => {
    const target = join(dir.path, 'app')
    const { code, stdout, stderr } = await runCli([target, ...quiet, ...args])
    expect(code).toBe(1)
    expect(stderr).toContain(message)
    expect(stderr.trim().split('\n')).toHaveLength(1)
    expect(stdout).toBe('')
    expect(existsSync(target)).toBe(false)
  })

  it('refuses a file as the target', async () => {
    const file = join(dir.path, 'file')
    writeFileSync(file, 'keep me')
    const { code, stderr } = await runCli([file, '--yes', ...quiet])
    expect(code).toBe(1)
    expect(stderr.trim()).toBe(`error: directory "${file}" is invalid: it is a file, not a folder`)
    expect(readFileSync(file, 'utf8')).toBe('keep me')
  })
})

describe('non-interactive runs', () => {
  it('never waits for input when stdin is not a TTY, even without --yes', async () => {
    const { code, stdout } = await runCli(['app', ...quiet], { cwd: dir.path })
    expect(code).toBe(0)
    expect(stdout).toContain('Scaffolded')
    expect(existsSync(join(dir.path, 'app', 'package.json'))).toBe(true)
  })

  it('does not prompt when CI is set', async () => {
    const { code } = await runCli(['app', ...quiet], { cwd: dir.path, env: userEnv({ CI: 'true' }) })
    expect(code).toBe(0)
  })

  it('uses cookie-auth-app when no directory is given', async () => {
    const { code } = await runCli(['--yes', ...quiet], { cwd: dir.path })
    expect(code).toBe(0)
    expect(JSON.parse(readFileSync(join(dir.path, 'cookie-auth-app', 'package.json'), 'utf8')).name).toBe('cookie-auth-app')
  })

  it('renders the answers into the app', async () => {
    const args = ['shop', '--db', 'mysql', '--email-verification', '--cookie-name', 'acme', '--access-ttl', '10m', '--refresh-ttl', '2h', '--remember-ttl', '14d', ...quiet]
    const { code } = await runCli(args, { cwd: dir.path })
    expect(code).toBe(0)
    expect(readFileSync(join(dir.path, 'shop', '.env'), 'utf8')).toContain('DATABASE_URL=mysql://root@127.0.0.1:3306/shop\n')
  })

  it('renders PostgreSQL with its driver, and keeps --two-factor in the reproduce command', async () => {
    const { code, stdout } = await runCli(['my shop', '--db', 'postgres', '--two-factor', '--yes', ...quiet], { cwd: dir.path })
    expect(code).toBe(0)
    expect(readFileSync(join(dir.path, 'my shop', '.env'), 'utf8')).toContain('DATABASE_URL=postgres://postgres@127.0.0.1:5432/my_shop\n')
    const pkg = JSON.parse(readFileSync(join(dir.path, 'my shop', 'package.json'), 'utf8'))
    expect(Object.keys(pkg.dependencies)).toEqual(expect.arrayContaining(['pg', 'pg-hstore']))
    expect(stdout).toMatch(/ --db postgres .* --cookie-name app --two-factor --no-passkeys --oauth none --no-teams --no-api-keys --no-oauth-provider --no-sso --no-passwordless --captcha none --pm npm /)
  })

  it('leaves a non-empty target untouched without --force', async () => {
    const target = join(dir.path, 'busy')
    mkdirSync(target)
    writeFileSync(join(target, 'notes.txt'), 'mine')
    const { code, stderr } = await runCli([target, '--yes', ...quiet])
    expect(code).toBe(1)
    expect(stderr.trim()).toBe(`error: directory "${target}" is not empty: pass --force to replace its contents (.git is kept)`)
    expect(listTree(target)).toEqual(['notes.txt'])
  })

  it('with --force replaces the contents but keeps .git', async () => {
    const target = join(dir.path, 'busy')
    mkdirSync(join(target, '.git', 'refs'), { recursive: true })
    writeFileSync(join(target, '.git', 'HEAD'), 'ref: refs/heads/main\n')
    writeFileSync(join(target, 'notes.txt'), 'old')
    const { code } = await runCli([target, '--yes', '--force', ...quiet])
    expect(code).toBe(0)
    expect(readFileSync(join(target, '.git', 'HEAD'), 'utf8')).toBe('ref: refs/heads/main\n')
    expect(existsSync(join(target, 'notes.txt'))).toBe(false)
    expect(existsSync(join(target, 'package.json'))).toBe(true)
  })
})

describe('after generation', () => {
  it('prints next steps for the detected package manager and the command that reproduces the project', async () => {
    const { code, stdout } = await runCli(['my shop', '--cookie-name', 'acme', ...quiet], {
      cwd: dir.path,
      env: userEnv({ npm_config_user_agent: 'pnpm/9.12.0 npm/? node/v20.20.2 linux x64' }),
    })
    expect(code).toBe(0)
    expect(stdout).toContain("  cd 'my shop'\n  pnpm install\n  pnpm run dev\n")
    expect(stdout).toContain(
      "  pnpm dlx create-cookie-auth-app 'my shop' --db sqlite --access-ttl 15m --refresh-ttl 1h --remember-ttl 30d --no-email-verification --cookie-name acme --no-two-factor --no-passkeys --oauth none --no-teams --no-api-keys --no-oauth-provider --no-sso --no-passwordless --captcha none --pm pnpm --no-install --no-git --yes\n",
    )
  })

  it('the printed command reproduces the project byte for byte but for the secrets', async () => {
    const [one, two] = [join(dir.path, 'one'), join(dir.path, 'two')]
    mkdirSync(one)
    mkdirSync(two)
    const first = await runCli(['app', '--db', 'mysql', '--access-ttl', '300', '--email-verification', ...quiet], { cwd: one })
    const command = /npx create-cookie-auth-app app (.*)$/m.exec(first.stdout)![1]!.split(' ')
    expect(command).not.toContain('--force')
    const second = await runCli(['app', ...command], { cwd: two })
    expect(second.code).toBe(0)
    const files = listTree(join(one, 'app')).filter((path) => !path.endsWith('/'))
    expect(listTree(join(two, 'app')).filter((path) => !path.endsWith('/'))).toEqual(files)
    for (const path of files.filter((name) => name !== '.env')) {
      expect(readFileSync(join(two, 'app', path)).equals(readFileSync(join(one, 'app', path))), path).toBe(true)
    }
  })

  it('initialises git with a first commit when asked', async () => {
    const { code } = await runCli(['repo', '--yes', '--no-install', '--git'], { cwd: dir.path })
    expect(code).toBe(0)
    const log = execFileSync('git', ['log', '--format=%s'], { cwd: join(dir.path, 'repo') }).toString()
    expect(log.trim()).toBe('Initial commit from create-cookie-auth-app')
    const tracked = execFileSync('git', ['ls-files'], { cwd: join(dir.path, 'repo') }).toString()
    expect(tracked).toContain('package.json')
    expect(tracked).not.toMatch(/^\.env$/m)
  })

  /**
   * A stand-in `pnpm` on PATH (the real one would download the whole tree): it "installs" what
   * pnpm 10 leaves without approved builds, a bcrypt that loads and a sqlite3 whose binding was
   * never built, and prints what pnpm prints then, or nothing.
   */
  function fakePnpm(warning: string): NodeJS.ProcessEnv {
    const bin = join(dir.path, 'bin')
    mkdirSync(bin)
    const script = [
      '#!/bin/sh',
      'mkdir -p node_modules/bcrypt node_modules/sqlite3',
      'echo "module.exports = {}" > node_modules/bcrypt/index.js',
      `echo 'throw new Error("Could not locate the bindings file")' > node_modules/sqlite3/index.js`,
      `printf '%s\\n' ${JSON.stringify(warning)}`,
    ].join('\n')
    writeFileSync(join(bin, 'pnpm'), `${script}\n`, { mode: 0o755 })
    return userEnv({ PATH: `${bin}:${process.env.PATH}` })
  }

  it('an install that skipped build scripts is a failure, named as pnpm names it', async () => {
    const env = fakePnpm('Ignored build scripts: bcrypt, sqlite3. Run "pnpm approve-builds" to pick which dependencies should be allowed to run scripts.')
    const { code, stdout, stderr } = await runCli(['app', '--yes', '--no-git', '--install', '--pm', 'pnpm'], { cwd: dir.path, env })
    expect(code).toBe(1)
    expect(stderr).toContain('error: pnpm install skipped the build scripts of bcrypt, sqlite3. The project is in')
    expect(stdout).not.toContain('Done')
  })

  it('an install that exits 0 but leaves a native dependency unloadable is a failure', async () => {
    const { code, stderr } = await runCli(['app', '--yes', '--no-git', '--install', '--pm', 'pnpm'], { cwd: dir.path, env: fakePnpm('Done in 1s') })
    expect(code).toBe(1)
    expect(stderr).toContain('error: pnpm install finished, but sqlite3 does not load (native build missing). The project is in')
  })

  it('a failed install exits 1 with the reason and the retry command, leaving the project', async () => {
    const { code, stderr } = await runCli(['app', '--yes', '--no-git', '--install', '--pm', 'npm'], {
      cwd: dir.path,
      // A registry nobody listens on: the real npm fails quickly and for real.
      env: userEnv({ npm_config_registry: 'http://127.0.0.1:9/', npm_config_fetch_retries: '0', npm_config_cache: join(dir.path, 'npm-cache') }),
    })
    expect(code).toBe(1)
    expect(stderr).toContain(`error: npm install exited with code 1. The project is in ${join(dir.path, 'app')}; to retry: cd ${join(dir.path, 'app')} && npm install`)
    expect(existsSync(join(dir.path, 'app', 'package.json'))).toBe(true)
  })
})
