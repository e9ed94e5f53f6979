import http from 'node:http'
import { randomBytes } from 'node:crypto'
import supertest from 'supertest'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { project } from '../src/kernel/config/project.js'
import { connectDatabase, createSequelize, databaseServer, dialectOf } from '../src/kernel/db/database.js'
import { sql } from '../src/kernel/db/sql.js'
import { runDatabaseUrl } from './helpers/database.js'
import { freePort, runScript, scratchDatabase, startScript, testSecrets } from './helpers/processes.js'

// This file reads no layer registry, so a variant run proves it once per database (the
// environment's rules, layers' variables included, are environment.test.ts's).
const good = { ...testSecrets(), DATABASE_URL: 'sqlite:./data/x.sqlite' }

describe('start-up with a bad environment', () => {
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

  // Three processes one after another, each compiling its TypeScript on start (two get 30 s below).
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
    const [roles] = await sequelize.query('SELECT name FROM roles ORDER BY name')
    expect((roles as Array<{ name: string }>).map((r) => r.name)).toEqual(['admin', 'user'])
    await sequelize.close()

    const port = await freePort()
    const server = startScript('server/src/index.ts', { ...env, PORT: String(port) }, /Listening on port/)
    await server.started
    const health = await supertest(`http://127.0.0.1:${port}`).get('/api/health')
    expect(health.body).toEqual({ status: 'ok', db: 'ok', redis: 'disabled' })
    expect(await server.stop()).toBe(0)
  }, 45_000)

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
    // Two migrate processes, each compiling the app with tsx: seconds apiece on a busy machine.
  }, 60_000)

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
