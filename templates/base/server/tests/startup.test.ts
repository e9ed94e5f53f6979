import http from 'node:http'
import { randomBytes } from 'node:crypto'
import supertest from 'supertest'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { EnvError, parseEnv, secretNames } from '../src/config/env.js'
import { project } from '../src/config/project.js'
import { connectDatabase, createSequelize, databaseServer, dialectOf } from '../src/db/database.js'
import { pendingMigrations } from '../src/db/migrator.js'
import { features } from '../src/features/index.js'
import { sql } from '../src/db/sql.js'
import { runDatabaseUrl } from './helpers/database.js'
import { freePort, runScript, scratchDatabase, startScript, testSecrets } from './helpers/processes.js'

const good = { ...testSecrets(), DATABASE_URL: 'sqlite:./data/x.sqlite' }

function envErrors(source: Record<string, string | undefined>): string[] {
  try {
    parseEnv(source, features)
  } catch (error) {
    if (error instanceof EnvError) return error.lines
    throw error
  }
  return []
}

describe('environment validation', () => {
  it('accepts a complete environment and applies the defaults', () => {
    const env = parseEnv(good, features)
    expect(env).toMatchObject({ PORT: 3000, BASE_URL: 'http://localhost:3000', COOKIE_SAMESITE: 'lax', MAIL_FROM: 'no-reply@localhost', CORS_ORIGINS: [] })
    expect(env.REDIS_URL).toBeUndefined()
    expect(env.SMTP_URL).toBeUndefined()
    expect(parseEnv({ ...testSecrets() }, features).DATABASE_URL).toBe(project.defaultDatabaseUrl)
  })

  it.each(secretNames(features))('%s: missing, short or a placeholder is one clear line', (name) => {
    for (const [value, problem] of [
      [undefined, /is required/],
      ['', /is required/],
      ['x'.repeat(31), /at least 32 characters/],
      ['change-me', /placeholder/],
      ['change-me-change-me-change-me-change-me', /placeholder/],
    ] as const) {
      const lines = envErrors({ ...good, [name]: value })
      expect(lines).toHaveLength(1)
      expect(lines[0]).toContain(name)
      expect(lines[0]).toMatch(problem)
    }
    expect(envErrors({ ...good, [name]: 'y'.repeat(32) })).toEqual([])
  })

  it('reports every bad variable on its own line', () => {
    const lines = envErrors({
      DATABASE_URL: 'postgres://x',
      PORT: 'eighty',
      BASE_URL: 'localhost',
      COOKIE_SAMESITE: 'strict',
      REDIS_URL: 'http://x',
      SMTP_URL: 'mail',
      MAIL_TRANSPORT: 'pigeon',
      CORS_ORIGINS: '*',
    })
    const named = ['DATABASE_URL', 'PORT', 'BASE_URL', 'COOKIE_SAMESITE', 'REDIS_URL', 'SMTP_URL', 'MAIL_TRANSPORT', 'CORS_ORIGINS', ...secretNames(features)]
    expect(lines).toHaveLength(named.length)
    for (const name of named) expect(lines.filter((line) => line.includes(` ${name}:`))).toHaveLength(1)
  })

  it('DATABASE_URL: SQLite, MySQL or PostgreSQL, a server URL naming its database', () => {
    for (const url of ['sqlite:./data/x.sqlite', 'mysql://root@127.0.0.1:3306/app', 'mariadb://h/app', 'postgres://postgres@127.0.0.1:5432/app', 'postgresql://u:p@h/app']) {
      expect(envErrors({ ...good, DATABASE_URL: url }), url).toEqual([])
    }
    for (const [url, problem] of [
      ['redis://h/app', /must start with sqlite:, mysql:\/\/ or postgres:\/\//],
      ['mysql://root@127.0.0.1:3306', /a MySQL URL must name the database/],
      ['postgres://postgres@127.0.0.1:5432/', /a PostgreSQL URL must name the database/],
      ['postgresql://h', /a PostgreSQL URL must name the database/],
    ] as const) {
      const lines = envErrors({ ...good, DATABASE_URL: url })
      expect(lines, url).toHaveLength(1)
      expect(lines[0]).toMatch(/^Invalid environment variable DATABASE_URL: /)
      expect(lines[0]).toMatch(problem)
    }
  })

  it('COOKIE_HOST_PREFIX is true or false, INSTANCE_ID a plain name', () => {
    expect(envErrors({ ...good, COOKIE_HOST_PREFIX: 'yes' })).toEqual([expect.stringContaining('COOKIE_HOST_PREFIX')])
    expect(parseEnv({ ...good, COOKIE_HOST_PREFIX: 'TRUE' }, features).COOKIE_HOST_PREFIX).toBe(true)
    expect(parseEnv(good, features).COOKIE_HOST_PREFIX).toBe(false)
    expect(envErrors({ ...good, INSTANCE_ID: 'web 1\n' })).toEqual([expect.stringContaining('INSTANCE_ID')])
    expect(parseEnv({ ...good, INSTANCE_ID: 'web-1' }, features).INSTANCE_ID).toBe('web-1')
  })

  it('API_DOCS is on or off; unset, on outside production only', () => {
    expect(parseEnv(good, features).API_DOCS).toBe(true)
    expect(parseEnv({ ...good, NODE_ENV: 'production', MAIL_TRANSPORT: 'log' }, features).API_DOCS).toBe(false)
    expect(parseEnv({ ...good, NODE_ENV: 'production', MAIL_TRANSPORT: 'log', API_DOCS: 'on' }, features).API_DOCS).toBe(true)
    expect(parseEnv({ ...good, API_DOCS: 'OFF' }, features).API_DOCS).toBe(false)
    expect(envErrors({ ...good, API_DOCS: 'yes' })).toEqual([expect.stringContaining('API_DOCS')])
  })

  it('SameSite=None needs CORS_ORIGINS', () => {
    expect(envErrors({ ...good, COOKIE_SAMESITE: 'none' })[0]).toContain('COOKIE_SAMESITE')
    expect(envErrors({ ...good, COOKIE_SAMESITE: 'none', CORS_ORIGINS: 'https://a.example' })).toEqual([])
  })

  it('MAIL_TRANSPORT: smtp with SMTP_URL, else log; smtp needs SMTP_URL', () => {
    expect(parseEnv(good, features).MAIL_TRANSPORT).toBe('log')
    expect(parseEnv({ ...good, SMTP_URL: 'smtp://127.0.0.1:1025' }, features).MAIL_TRANSPORT).toBe('smtp')
    expect(parseEnv({ ...good, SMTP_URL: 'smtp://127.0.0.1:1025', MAIL_TRANSPORT: 'LOG' }, features).MAIL_TRANSPORT).toBe('log')
    expect(envErrors({ ...good, MAIL_TRANSPORT: 'sendmail' })).toEqual([expect.stringMatching(/^Invalid environment variable MAIL_TRANSPORT: "sendmail" is not smtp or log/)])
    expect(envErrors({ ...good, MAIL_TRANSPORT: 'smtp' })).toEqual([expect.stringMatching(/^Invalid environment variable SMTP_URL: /)])
  })

  it('production without SMTP_URL is one line naming SMTP_URL, unless MAIL_TRANSPORT=log says the log is meant', () => {
    const production = { ...good, NODE_ENV: 'production' }
    expect(envErrors(production)).toEqual([expect.stringMatching(/^Invalid environment variable SMTP_URL: .*MAIL_TRANSPORT=log/)])
    expect(envErrors({ ...production, SMTP_URL: 'smtp://127.0.0.1:1025' })).toEqual([])
    expect(parseEnv({ ...production, MAIL_TRANSPORT: 'log' }, features).MAIL_TRANSPORT).toBe('log')
    // A bad SMTP_URL is still one line, not two.
    expect(envErrors({ ...production, SMTP_URL: 'mail' })).toEqual([expect.stringContaining('SMTP_URL: "mail" is not')])
  })

  it('start-up in production without SMTP_URL exits 1 with one line naming SMTP_URL', async () => {
    const run = await runScript('server/src/index.ts', [], { ...good, NODE_ENV: 'production' })
    expect(run.code).toBe(1)
    expect(run.stderr.trim().split('\n')).toEqual([expect.stringMatching(/^Invalid environment variable SMTP_URL: /)])
  })

  it('start-up with a bad secret exits 1 with that line and no stack trace', async () => {
    const run = await runScript('server/src/index.ts', [], { ...good, JWT_REFRESH_SECRET: 'change-me' })
    expect(run.code).toBe(1)
    expect(run.stderr).toMatch(/^Invalid environment variable JWT_REFRESH_SECRET: .*placeholder/m)
    expect(run.stderr).not.toMatch(/\n\s+at /)
  })
})

describe('migrations and start', () => {
  let scratch: Awaited<ReturnType<typeof scratchDatabase>>
  beforeAll(async () => {
    scratch = await scratchDatabase()
  })
  afterAll(async () => {
    await scratch?.drop()
  })

  it('start refuses to run with pending migrations, db:migrate applies them, then the server starts and stops', async () => {
    const env = { ...testSecrets(), DATABASE_URL: scratch.url }
    const refused = await runScript('server/src/index.ts', [], env)
    expect(refused.code).toBe(1)
    expect(refused.stderr).toContain('pending migration')
    expect(refused.stderr).toContain(project.migrateCommand)

    const migrated = await runScript('server/src/cli/migrate.ts', [], env)
    expect(migrated.code).toBe(0)
    expect(migrated.stdout).toContain('0001-create-roles')

    const sequelize = createSequelize(scratch.url)
    await connectDatabase(sequelize)
    expect(await pendingMigrations(sequelize, features)).toEqual([])
    const [roles] = await sequelize.query('SELECT name FROM roles ORDER BY name')
    expect((roles as Array<{ name: string }>).map((r) => r.name)).toEqual(['admin', 'user'])
    await sequelize.close()

    const port = await freePort()
    const server = startScript('server/src/index.ts', { ...env, PORT: String(port) }, /Listening on port/)
    await server.started
    const health = await supertest(`http://127.0.0.1:${port}`).get('/api/health')
    expect(health.body).toEqual({ status: 'ok', db: 'ok', redis: 'disabled' })
    expect(await server.stop()).toBe(0)
  })

  it('db:migrate creates a missing MySQL or PostgreSQL database, then migrates it', async (context) => {
    const runUrl = runDatabaseUrl()
    if (dialectOf(runUrl) === 'sqlite') return context.skip()
    const server = databaseServer(runUrl)
    const name = `${server.name.slice(0, 39)}_m${randomBytes(3).toString('hex')}`
    try {
      const migrated = await runScript('server/src/cli/migrate.ts', [], { ...testSecrets(), DATABASE_URL: server.urlOf(name) })
      expect(migrated.stderr).toBe('')
      expect(migrated.code).toBe(0)
      expect(migrated.stdout).toContain('0001-create-roles')
      const again = await runScript('server/src/cli/migrate.ts', [], { ...testSecrets(), DATABASE_URL: server.urlOf(name) })
      expect(again.stdout).toContain('Database is up to date.')
    } finally {
      await server.drop(name)
      await server.close()
    }
  })

  it.each([
    ['without SMTP_URL', {}],
    ['even with SMTP_URL set', { SMTP_URL: 'smtp://127.0.0.1:1' }],
  ])('production with MAIL_TRANSPORT=log starts %s and writes mail to the log', async (_label, mail: Record<string, string>) => {
    const env = { ...testSecrets(), DATABASE_URL: scratch.url }
    await runScript('server/src/cli/migrate.ts', [], env)
    const port = await freePort()
    const server = startScript('server/src/index.ts', { ...env, ...mail, NODE_ENV: 'production', MAIL_TRANSPORT: 'log', PORT: String(port) }, /Listening on port/)
    let code: number | null = null
    try {
      await server.started
      expect(server.output()).toMatch(/Listening on port \d+ .*production.*mail: log \+ storage\/mail/)
      expect((await supertest(`http://127.0.0.1:${port}`).get('/api/health')).status).toBe(200)
    } finally {
      // A failed expectation must not leave the server running after the file.
      code = await server.stop()
    }
    expect(code).toBe(0)
  })

  it('with REDIS_URL on a closed port: health is 503, and SIGTERM still stops the server promptly', async () => {
    const env = { ...testSecrets(), DATABASE_URL: scratch.url }
    await runScript('server/src/cli/migrate.ts', [], env)
    const port = await freePort()
    const server = startScript('server/src/index.ts', { ...env, PORT: String(port), REDIS_URL: `redis://127.0.0.1:${await freePort()}` }, /Listening on port/)
    await server.started
    const health = await supertest(`http://127.0.0.1:${port}`).get('/api/health')
    expect(health.status).toBe(503)
    expect(health.body).toEqual({ status: 'error', db: 'ok', redis: 'error' })
    const started = Date.now()
    expect(await server.stop()).toBe(0)
    expect(Date.now() - started).toBeLessThan(8000)
    // Each connection problem is reported once, not on every reconnect attempt (one JSON record per line).
    const messages = server
      .output()
      .split('\n')
      .filter((line) => line.startsWith('{'))
      .map((line) => (JSON.parse(line) as { msg: string }).msg)
    const problems = messages.filter((msg) => /^(Redis|Job)/.test(msg))
    expect(problems.length).toBeGreaterThan(0)
    expect(new Set(problems).size).toBe(problems.length)
  }, 30_000)

  it('SIGTERM drains: a request in flight on a kept-alive connection finishes with Connection: close, then the process exits 0', async () => {
    const env = { ...testSecrets(), DATABASE_URL: scratch.url }
    await runScript('server/src/cli/migrate.ts', [], env)
    await runScript('server/src/cli/user-create.ts', ['--name', 'Drain', '--email', 'drain@example.test', '--password', 'drain password'], env)
    const port = await freePort()
    const server = startScript('server/src/index.ts', { ...env, PORT: String(port) }, /Listening on port/)
    await server.started
    const agent = new http.Agent({ keepAlive: true, maxSockets: 1 })
    const send = (method: string, path: string, body?: object) =>
      new Promise<{ status: number; connection: string | undefined }>((resolve, reject) => {
        const req = http.request({ host: '127.0.0.1', port, method, path, agent, headers: { 'content-type': 'application/json' } }, (res) => {
          res.resume()
          res.on('end', () => resolve({ status: res.statusCode!, connection: res.headers.connection }))
        })
        req.on('error', reject)
        req.end(body ? JSON.stringify(body) : undefined)
      })
    expect(await send('GET', '/api/health')).toEqual({ status: 200, connection: 'keep-alive' })
    // A login (a bcrypt compare) is under way on that connection when the signal arrives.
    const inFlight = send('POST', '/api/auth/login', { email: 'drain@example.test', password: 'drain password' })
    await new Promise((resolve) => setTimeout(resolve, 30))
    const exited = server.stop()
    expect(await inFlight).toEqual({ status: 200, connection: 'close' })
    expect(await exited).toBe(0)
    agent.destroy()
  }, 30_000)

  it('user:create creates a verified user with the requested role', async () => {
    const env = { ...testSecrets(), DATABASE_URL: scratch.url }
    await runScript('server/src/cli/migrate.ts', [], env)
    const created = await runScript('server/src/cli/user-create.ts', ['--name', 'Root', '--email', 'Root@Example.test', '--password', 'root password', '--role', 'admin'], env)
    expect(created.stderr).toBe('')
    expect(created.code).toBe(0)

    const sequelize = createSequelize(scratch.url)
    await connectDatabase(sequelize)
    const [rows] = await sequelize.query(
      sql(`SELECT u.email, u.password, u."emailVerifiedAt", r.name AS role FROM users u JOIN roles r ON r.id = u."roleId" WHERE u.email = $1`)(sequelize),
      { bind: ['root@example.test'] },
    )
    await sequelize.close()
    const row = (rows as Array<{ password: string; emailVerifiedAt: unknown; role: string }>)[0]
    expect(row?.role).toBe('admin')
    expect(row?.emailVerifiedAt).not.toBeNull()
    expect(row?.password.startsWith('$2b$10$')).toBe(true)

    const duplicate = await runScript('server/src/cli/user-create.ts', ['--name', 'R', '--email', 'root@example.test', '--password', 'root password'], env)
    expect(duplicate.code).toBe(1)
    expect(duplicate.stderr).toContain('already exists')
    const weak = await runScript('server/src/cli/user-create.ts', ['--name', 'R', '--email', 'r2@example.test', '--password', 'short'], env)
    expect(weak.code).toBe(1)
    expect(weak.stderr).toContain('--password')
  })
})
