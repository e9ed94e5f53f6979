/**
 * `add` and `update` on a real app with a real database (issue 40), as an owner would run them.
 * Each release kept in test/fixtures/releases (its `npm pack` tarball) generates the default
 * SQLite app (no two-factor, passkeys, OAuth or e-mail verification) and git commits it, on the
 * shared install (no install per app: sqlite3 compiles for 90 s); a user is created and the
 * owner's edits to a controller, a page and package.json are committed; `update --from <that
 * tarball>` upgrades it to this working tree (migrating), the edits kept. An older release's app
 * then signs its user in over HTTP; the newest release's app goes on:
 *
 *   after each `add` (which migrates) the edits are still there and the user signs in over HTTP;
 *   1. `add two-factor`: POST /api/account/two-factor answers a secret;
 *   2. `add passkeys`: a passkey registration starts;
 *   3. `add passwordless`: an e-mail sign-in is asked for and mailed; then `add oauth-github`
 *      (whose released migration meets users.password already optional): with a client in the
 *      environment, GET /api/auth/oauth/github redirects to GitHub's authorize URL;
 *   4. `add oauth-google` and `add oauth-oidc`: with the app's own development provider
 *      (`oauth:dev-provider`) standing in for Google and for the OpenID provider, each start
 *      redirects to its authorization endpoint;
 *   5. `add email-verification`: registering answers 202 and mails a /verify-email?token= link
 *      (to storage/mail, there being no SMTP); `add oauth-provider`: RFC 8414 discovery names the
 *      issuer, the JWKS holds the key made in the migrated database, a bad bearer is 401 with the
 *      API's metadata in WWW-Authenticate;
 *   then the app's own `npm test` (but the test files that test:variants, before this in
 *   `npm test`, proved: scripts/lib/proved-tests.ts) and one
 *   typecheck, client and server, for the six;
 *   6. `update --no-passkeys`: the code goes, the tables and their rows stay, the server
 *      type-checks, the app starts and the user still signs in;
 *   7. on MySQL and on PostgreSQL (the machine's servers, a fresh database each, dropped after):
 *      the app generated, migrated, a user and edits committed; `add two-factor` on MySQL and
 *      `add passkeys` on PostgreSQL, then the user signs in and the feature's first endpoint answers.
 *      The PostgreSQL app is installed by the CLI as a user's is (npm), so `add` installs the
 *      passkeys layer's dependencies for real before its server starts.
 *
 *   npm run test:update [-- --keep]
 *
 * Prints the seconds of each step. Exits 1 on the first failure.
 */
import { execFileSync } from 'node:child_process'
import { appendFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { parseArgs } from 'node:util'
import { execa } from 'execa'
import { rsort } from 'semver'
import { appEnv } from './lib/app-env.js'
import { freshDatabase } from './lib/database.js'
import { freePort } from './lib/ports.js'
import { dueClientTests, dueServerTests, readLedger, testFilters } from './lib/proved-tests.js'
import { sharedNodeModules } from './lib/shared-install.js'
import { whileStarted } from './lib/start-script.js'

const { values } = parseArgs({ options: { keep: { type: 'boolean', default: false } } })
const BIN = fileURLToPath(new URL('../bin/create-cookie-auth-app.js', import.meta.url))
const RELEASES = fileURLToPath(new URL('../test/fixtures/releases/', import.meta.url))
const VERSION = (JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string }).version
const USER = { email: 'ada@example.test', password: 'a long password for ada' }
// The owner's edits, made in the release's app: [where, the mark, where the file lives now when
// this version moved it (the edit must follow it there)].
const OWNER_MARKS: [string, string, string?][] = [
  ['server/src/controllers/auth/me.ts', '// Owner: reviewed for the audit.\n', 'server/src/kernel/auth/me.ts'],
  ['client/src/pages/DashboardPage.vue', '<!-- Owner: our dashboard. -->\n'],
]

const timings: [string, number][] = []
async function step<T>(title: string, run: () => Promise<T>): Promise<T> {
  console.log(`\n── ${title}`)
  const started = Date.now()
  const result = await run()
  timings.push([title, (Date.now() - started) / 1000])
  return result
}

function check(ok: boolean, what: string): void {
  if (!ok) throw new Error(what)
  console.log(`ok: ${what}`)
}

const root = mkdtempSync(join(tmpdir(), 'cca-update-'))
// No breached-password lookups over the network, and no user agent to pick a package manager.
const baseEnv: NodeJS.ProcessEnv = { ...process.env, PWNED_PASSWORDS: 'off', CI: '1' }
delete baseEnv.npm_config_user_agent
type Request = (method: string, path: string, body?: object) => Promise<Response>

/**
 * An app in `root/<name>` and what the owner runs in it; `registryEnv` reaches the CLI when it
 * installs, `env` (the same on loopback only) everything else: the CLI without an install, the
 * migrations, the server.
 */
function ownerApp(name: string, registryEnv: NodeJS.ProcessEnv) {
  const dir = join(root, name)
  const env = appEnv(registryEnv)
  const npm = (...args: string[]) => execa('npm', args, { cwd: dir, env, stdio: 'inherit' })
  let onSharedInstall = true
  return {
    dir,
    env,
    npm,
    git: (...args: string[]) => execFileSync('git', ['-c', 'user.name=Owner', '-c', 'user.email=owner@example.test', ...args], { cwd: dir, encoding: 'utf8' }),

    /**
     * Generates it with `bin` (committed), on the shared install (`modules`) or, with none,
     * installed by the CLI as a user's run installs; migrates and creates the user.
     */
    async generate(modules: string | undefined, db: string, bin = BIN): Promise<void> {
      await execa(process.execPath, [bin, dir, '--db', db, ...(modules ? ['--no-install'] : []), '--git', '--yes'], { env: modules ? env : registryEnv, stdio: 'inherit' })
      onSharedInstall = modules !== undefined
      if (modules) {
        symlinkSync(modules, join(dir, 'node_modules'), 'dir')
        // The link is a file to git, which `node_modules/` in .gitignore does not match.
        appendFileSync(join(dir, '.git/info/exclude'), 'node_modules\n')
      }
      await npm('run', 'db:migrate')
      await npm('run', 'user:create', '--', '--name', 'Ada', '--email', USER.email, '--password', USER.password)
    },

    commitOwnerEdits(): void {
      // At the old path in the release's app, at the new one in an app this version made.
      for (const [old, mark, now = old] of OWNER_MARKS) {
        const file = existsSync(join(dir, old)) ? old : now
        writeFileSync(join(dir, file), mark + readFileSync(join(dir, file), 'utf8'))
      }
      const pkg = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'))
      pkg.scripts['owner:hello'] = 'echo hello'
      writeFileSync(join(dir, 'package.json'), `${JSON.stringify(pkg, null, 2)}\n`)
      this.git('commit', '-qam', 'Owner edits')
    },

    checkOwnerEdits(): void {
      for (const [file, mark, now = file] of OWNER_MARKS) {
        check(readFileSync(join(dir, now), 'utf8').startsWith(mark), `the owner's edit of ${file} is there${now === file ? '' : `, moved to ${now}`}`)
        if (now !== file) check(!existsSync(join(dir, file)), `${file} is gone from where it was`)
      }
      check(JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')).scripts['owner:hello'] === 'echo hello', "the owner's script is in package.json")
    },

    /**
     * Runs the CLI's update or add (which migrates, and installs unless on the shared install), with
     * `extraEnv`; returns its output, which it also prints.
     */
    async cli(args: string[], extraEnv: NodeJS.ProcessEnv = {}): Promise<string> {
      const cliEnv = { ...(onSharedInstall ? env : registryEnv), ...extraEnv }
      const run = await execa(process.execPath, [BIN, ...args, '--cwd', dir, ...(onSharedInstall ? ['--no-install'] : [])], { env: cliEnv, all: true, reject: false })
      console.log(run.all)
      if (run.exitCode !== 0) throw new Error(`create-cookie-auth-app ${args.join(' ')} exited with ${run.exitCode}`)
      return run.all ?? ''
    },

    /** `add`, then what it asked the owner to add to .env added as the owner would, the owner's edits checked and all committed. */
    async add(feature: string): Promise<string> {
      const output = await this.cli(['add', feature])
      const lines = /^Add to \.env[^\n]*\n((?: {2}\S+=.*\n?)+)/m.exec(output)?.[1]
      if (lines) appendFileSync(join(dir, '.env'), lines.replace(/^ {2}/gm, ''))
      this.checkOwnerEdits()
      this.git('add', '-A')
      this.git('commit', '-qm', `add ${feature}`)
      return output
    },

    /**
     * Starts the server from source (no build) with `extraEnv`, signs the user in and hands over
     * a request function with the session and the base URL.
     */
    async whileSignedIn(use: (request: Request, base: string) => Promise<void>, extraEnv: NodeJS.ProcessEnv = {}): Promise<void> {
      const tsx = join(dir, 'node_modules/.bin/tsx')
      await whileStarted(`${tsx} server/src/index.ts`, await freePort(), { cwd: dir, env: { ...env, ...extraEnv }, stdio: 'inherit' }, async (health, base) => {
        check(health?.ok === true, 'the app starts and /api/health answers')
        const login = await fetch(`${base}/api/auth/login`, {
          method: 'POST',
          headers: { 'Content-Type': 'application/json', Origin: base },
          body: JSON.stringify(USER),
        })
        check(login.status === 200, `the existing user signs in (${login.status})`)
        const cookie = login.headers
          .getSetCookie()
          .map((line) => line.split(';')[0])
          .join('; ')
        const request: Request = (method, path, body) =>
          fetch(`${base}${path}`, { method, headers: { 'Content-Type': 'application/json', Origin: base, Cookie: cookie }, body: body && JSON.stringify(body) })
        await use(request, base)
      })
    },
  }
}

type OwnerApp = ReturnType<typeof ownerApp>
const app = ownerApp('sqlite', baseEnv)

/** The SQLite database's tables, read with the app's own driver. */
async function tables(): Promise<string[]> {
  const script = "import sqlite3 from 'sqlite3'; const db = new sqlite3.Database('data/app.sqlite'); db.all(\"SELECT name FROM sqlite_master WHERE type = 'table'\", (e, rows) => { if (e) throw e; console.log(JSON.stringify(rows.map((r) => r.name))) })"
  const { stdout } = await execa(process.execPath, ['--input-type=module', '-e', script], { cwd: app.dir, env: app.env })
  return JSON.parse(stdout) as string[]
}

async function rows(table: string): Promise<number> {
  const script = `import sqlite3 from 'sqlite3'; new sqlite3.Database('data/app.sqlite').get('SELECT COUNT(*) AS n FROM ${table}', (e, row) => { if (e) throw e; console.log(row.n) })`
  return Number((await execa(process.execPath, ['--input-type=module', '-e', script], { cwd: app.dir, env: app.env })).stdout)
}

const enableTwoFactor = async (request: Request) => {
  const enable = await request('POST', '/api/account/two-factor', { password: USER.password })
  const body = (await enable.json()) as { secret?: string }
  check(enable.status === 200 && typeof body.secret === 'string', `POST /api/account/two-factor answers a secret (${enable.status})`)
}
const startPasskeyRegistration = async (request: Request) => {
  const options = await request('POST', '/api/account/passkeys/options', { password: USER.password })
  const body = (await options.json()) as { challenge?: string }
  check(options.status === 200 && typeof body.challenge === 'string', `POST /api/account/passkeys/options answers a challenge (${options.status})`)
}

/** Polls `storage/mail` for up to 10 s for an .eml holding `needle` (the queue mails after the answer). */
async function mailHolding(appDir: string, needle: string): Promise<string | undefined> {
  const folder = join(appDir, 'storage/mail')
  for (const deadline = Date.now() + 10_000; Date.now() < deadline; await new Promise((resolve) => setTimeout(resolve, 200))) {
    const files = existsSync(folder) ? readdirSync(folder).filter((file) => file.endsWith('.eml')) : []
    const found = files.map((file) => readFileSync(join(folder, file), 'utf8')).find((text) => text.includes(needle))
    if (found) return found
  }
  return undefined
}

/**
 * The app on MySQL or PostgreSQL, in a fresh database on the machine's server: generated (on the
 * shared install, or with `modules` undefined installed as a user's is), migrated, a user created
 * and edits committed; `feature` added (which installs what it brings, then migrates); then the
 * user signs in over HTTP and `firstUse` answers. The database is dropped afterwards.
 */
async function addOnServer(modules: string | undefined, db: 'mysql' | 'postgres', feature: string, firstUse: (request: Request) => Promise<void>): Promise<void> {
  const database = (await freshDatabase(db, `cca_update_${process.pid}_${db}`))!
  try {
    // The generated .env names a database after the app: not named `mysql` or `postgres`, it names
    // none on the server, so a run that ignored the fresh one fails instead of writing to those.
    const other = ownerApp(`${db}-app`, { ...baseEnv, DATABASE_URL: database.url })
    await step(`${db}: generate${modules ? '' : ', install'}, migrate, create a user, commit edits`, async () => {
      await other.generate(modules, db)
      other.commitOwnerEdits()
    })
    await step(`${db}: add ${feature} (${modules ? '' : 'installs, '}migrates)`, () => other.add(feature))
    await step(`${db}: sign in, use ${feature} over HTTP`, () => other.whileSignedIn(firstUse))
  } finally {
    await database.drop()
  }
}

type Release = { version: string; tarball: string; bin: string }

/** The releases kept in test/fixtures/releases, newest first, each unpacked: its version, tarball and CLI. */
function keptReleases(): Release[] {
  const versions = rsort(readdirSync(RELEASES).flatMap((file) => /^create-cookie-auth-app-(.+)\.tgz$/.exec(file)?.[1] ?? []))
  if (!versions.length) throw new Error(`no release tarball in ${RELEASES}`)
  return versions.map((version) => {
    const tarball = join(RELEASES, `create-cookie-auth-app-${version}.tgz`)
    const folder = join(root, `release-${version}`)
    mkdirSync(folder)
    execFileSync('tar', ['-xzf', tarball, '-C', folder])
    return { version, tarball, bin: join(folder, 'package/bin/create-cookie-auth-app.js') }
  })
}

/**
 * `owner`'s app made by `release`, with a user and the owner's edits committed, then updated from
 * it to the working tree (which migrates): the edits kept, the new version recorded, committed.
 */
async function upgrade(owner: OwnerApp, release: Release, modules: string): Promise<void> {
  const at = owner === app ? '' : ` (${owner.dir})`
  await step(`generate the default app with ${release.version}, commit it, create a user${at}`, () => owner.generate(modules, 'sqlite', release.bin))
  await step(`commit the owner's edits${at}`, async () => owner.commitOwnerEdits())
  await step(`update from ${release.version} to the working tree (migrates)${at}`, async () => {
    // The fixture is what was released; npm offline leaves its integrity unchecked (a warning) rather than ask the registry.
    const output = await owner.cli(['update', '--from', release.tarball], { npm_config_offline: 'true' })
    check(output.includes(`create-cookie-auth-app ${release.version} → ${VERSION}`), `update says ${release.version} → ${VERSION}`)
    owner.checkOwnerEdits()
    const record = JSON.parse(readFileSync(join(owner.dir, 'cookie-auth.json'), 'utf8')) as { generator: { version: string } }
    check(record.generator.version === VERSION, `cookie-auth.json records ${VERSION}`)
    owner.git('add', '-A')
    owner.git('commit', '-q', '--allow-empty', '-m', `update to ${VERSION}`)
  })
}

/**
 * Runs the app's development OpenID provider (the one its README offers for trying social
 * sign-in) on a free port while `use` runs, handing it the provider's issuer.
 */
async function whileProviderRuns(use: (issuer: string) => Promise<void>): Promise<void> {
  const port = await freePort()
  const provider = execa('npm', ['run', 'oauth:dev-provider'], { cwd: app.dir, env: { ...app.env, OIDC_DEV_PORT: String(port) }, detached: true, reject: false, all: true })
  let output = ''
  provider.all?.on('data', (chunk: Buffer) => (output += chunk))
  try {
    let issuer: string | undefined
    for (const deadline = Date.now() + 30_000; !issuer && Date.now() < deadline && provider.exitCode === null; await new Promise((resolve) => setTimeout(resolve, 200))) {
      issuer = /^OAUTH_OIDC_ISSUER=(\S+)$/m.exec(output)?.[1]
    }
    if (!issuer) throw new Error(`oauth:dev-provider did not start: ${output}`)
    await use(issuer)
  } finally {
    if (provider.exitCode === null) process.kill(-provider.pid!, 'SIGTERM')
    await provider
  }
}

/** Signed in with `env`, GET /api/auth/oauth/<id> redirects to the provider (`to`: an origin or a whole URL) with the client. */
const startsSignIn = (id: string, to: string, clientId: string, env: NodeJS.ProcessEnv) =>
  app.whileSignedIn(async (_request, base) => {
    const start = await fetch(`${base}/api/auth/oauth/${id}`, { redirect: 'manual' })
    const location = new URL(start.headers.get('location') ?? '/', base)
    check(
      start.status === 302 && [location.origin, location.origin + location.pathname].includes(to) && location.searchParams.get('client_id') === clientId,
      `GET /api/auth/oauth/${id} redirects to the provider's authorization endpoint with the client (${start.status} ${location.href})`,
    )
  }, env)

const started = Date.now()
let failed = false
try {
  const modules = await step('shared install', () => sharedNodeModules())
  const [newest, ...older] = keptReleases()
  for (const release of older) {
    const earlier = ownerApp(`sqlite-${release.version}`, baseEnv)
    await upgrade(earlier, release, modules)
    await step(`sign in to the app updated from ${release.version}`, () =>
      earlier.whileSignedIn(async (request) => {
        check((await request('GET', '/api/auth/me')).status === 200, 'GET /api/auth/me answers')
      }),
    )
  }
  await upgrade(app, newest!, modules)

  await step('add two-factor (migrates)', () => app.add('two-factor'))
  await step('sign in, enable two-factor over HTTP', () => app.whileSignedIn(enableTwoFactor))

  await step('add passkeys (migrates)', () => app.add('passkeys'))
  await step('sign in, start a passkey registration over HTTP', () => app.whileSignedIn(startPasskeyRegistration))
  const passkeyChallenges = await rows('passkey_challenges')

  // Sign-in by e-mail makes users.password optional, which the released oauth-0001 next expects to do.
  await step('add passwordless (migrates)', () => app.add('passwordless'))
  await step('sign in, ask for an e-mail sign-in over HTTP: 202 and a mail', () =>
    app.whileSignedIn(async (_request, base) => {
      const email = USER.email
      const ask = await fetch(`${base}/api/auth/email-sign-in`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', Origin: base },
        body: JSON.stringify({ email }),
      })
      check(ask.status === 202, `POST /api/auth/email-sign-in answers 202 (${ask.status})`)
      const mail = await mailHolding(app.dir, `${base}/login/email?token=`)
      check(mail?.includes(`To: ${email}`) === true, `a mail to ${email} in storage/mail holds a /login/email?token= link`)
    }),
  )

  await step('add oauth-github (migrates)', () => app.add('oauth-github'))
  // A client at GitHub is all the start needs: the redirect is built here, GitHub is not called.
  const github = { OAUTH_GITHUB_CLIENT_ID: 'update-test-client', OAUTH_GITHUB_CLIENT_SECRET: 'update-test-secret' }
  await step('sign in, start a GitHub sign-in over HTTP', () =>
    startsSignIn('github', 'https://github.com/login/oauth/authorize', github.OAUTH_GITHUB_CLIENT_ID, github),
  )

  await step('add oauth-google and oauth-oidc', async () => {
    await app.add('oauth-google')
    await app.add('oauth-oidc')
  })
  await step('sign in, start a Google and an OpenID sign-in over HTTP', () =>
    whileProviderRuns(async (issuer) => {
      const origin = new URL(issuer).origin
      const client = { id: 'dev-client', secret: 'dev-client-secret' }
      await startsSignIn('google', origin, client.id, { OAUTH_GOOGLE_ISSUER: issuer, OAUTH_GOOGLE_CLIENT_ID: client.id, OAUTH_GOOGLE_CLIENT_SECRET: client.secret })
      await startsSignIn('oidc', origin, client.id, { OAUTH_OIDC_ISSUER: issuer, OAUTH_OIDC_CLIENT_ID: client.id, OAUTH_OIDC_CLIENT_SECRET: client.secret })
    }),
  )

  await step('add email-verification', () => app.add('email-verification'))
  await step('sign in, register a new address over HTTP: a verification mail', () =>
    app.whileSignedIn(async (_request, base) => {
      const email = 'grace@example.test'
      const register = await fetch(`${base}/api/auth/register`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', Origin: base },
        body: JSON.stringify({ name: 'Grace', email, password: 'a long password for grace' }),
      })
      check(register.status === 202, `registering answers 202, no session before the address is verified (${register.status})`)
      const mail = await mailHolding(app.dir, `To: ${email}`)
      check(mail?.includes(`${base}/verify-email?token=`) === true, `a mail to ${email} in storage/mail holds a /verify-email?token= link`)
    }),
  )
  await step('add oauth-provider (migrates)', () => app.add('oauth-provider'))
  await step('sign in; the provider publishes its discovery and keys, the API its 401 challenge', () =>
    app.whileSignedIn(async (request, base) => {
      const discovery = await fetch(`${base}/.well-known/oauth-authorization-server/oauth2`)
      const document = (await discovery.json()) as { issuer?: string; jwks_uri?: string }
      check(discovery.status === 200 && document.issuer === `${base}/oauth2`, `RFC 8414 discovery names the issuer ${base}/oauth2 (${discovery.status})`)
      // The first signing key is made, sealed with ENCRYPTION_KEY, in the migrated database.
      const jwks = (await (await fetch(document.jwks_uri!)).json()) as { keys?: { kty: string; d?: string }[] }
      check((jwks.keys?.length ?? 0) > 0 && jwks.keys!.every((key) => key.d === undefined), `the JWKS publishes public keys (${jwks.keys?.length ?? 0})`)
      check((await request('GET', '/api/auth/me')).status === 200, 'the session still reads /api/auth/me')
      const refused = await fetch(`${base}/api/auth/me`, { headers: { Authorization: 'Bearer not-a-token' } })
      check(
        refused.status === 401 && refused.headers.get('www-authenticate') === `Bearer resource_metadata="${base}/.well-known/oauth-protected-resource"`,
        `a bad bearer is 401 naming the API's metadata (${refused.status} ${refused.headers.get('www-authenticate')})`,
      )
    }),
  )
  // One typecheck, client and server, for the layers added (27 s here): one compiler, beside the
  // tests' two workers; its output is printed after theirs.
  const typecheck = execa('npm', ['run', 'typecheck'], { cwd: app.dir, env: app.env, all: true, reject: false })
  await step("the app's own npm test (what test:variants proved aside)", async () => {
    const proved = readLedger()
    const server = dueServerTests(app.dir, 'sqlite', proved)
    const client = dueClientTests(app.dir, proved)
    console.log(`server: ${server.due.length} of ${server.all} test files; the others ran with the same bytes on SQLite in test:variants`)
    console.log(`client: ${client.due.length} of ${client.all} test files; the others ran in test:variants with every app file they load the same`)
    const filters = testFilters(server, client)
    if (filters) await app.npm('test', '--', ...filters)
  })
  await step('typecheck (what it took beyond the tests)', async () => {
    const { all, exitCode } = await typecheck
    console.log(all)
    check(exitCode === 0, 'the app with the six layers added type-checks')
  })

  const removed = await step('update --no-passkeys', () => app.cli(['update', '--no-passkeys']))
  check(removed.includes('not the tables or their data'), 'the output says the tables stay')
  check(!existsSync(join(app.dir, 'server/src/features/passkeys')), "the passkeys layer's code is gone")
  const left = await tables()
  check(left.includes('passkeys') && left.includes('passkey_challenges'), 'its tables stay')
  check((await rows('passkey_challenges')) === passkeyChallenges && passkeyChallenges > 0, `their rows stay (${passkeyChallenges})`)
  // The server's typecheck only: the client finds its layers by a glob, and lean beats a second full run.
  await step("server's typecheck without passkeys", () => app.npm('exec', '--', 'tsc', '--noEmit', '-p', 'tsconfig.server.json'))
  await step('sign in without passkeys', () =>
    app.whileSignedIn(async (request) => {
      check((await request('GET', '/api/auth/me')).status === 200, 'GET /api/auth/me answers')
    }),
  )

  await addOnServer(modules, 'mysql', 'two-factor', enableTwoFactor)
  // A real install here (sqlite3, which compiles, is not a PostgreSQL app's): `add` installs the
  // layer's dependencies itself, and the server that signs in runs on them.
  await addOnServer(undefined, 'postgres', 'passkeys', startPasskeyRegistration)
} catch (error) {
  failed = true
  console.error(`\nFAILED: ${(error as Error).message}`)
} finally {
  console.log('\nseconds per step:')
  for (const [title, seconds] of timings) console.log(`  ${seconds.toFixed(1).padStart(6)}  ${title}`)
  console.log(`  ${((Date.now() - started) / 1000).toFixed(1).padStart(6)}  in all`)
  if (values.keep) console.log(`kept: ${root}`)
  else rmSync(root, { recursive: true, force: true })
}
process.exitCode = failed ? 1 : 0
