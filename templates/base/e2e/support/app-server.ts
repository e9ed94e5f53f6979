import { spawn, type ChildProcess } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { parseEnv } from 'node:util'
import bcrypt from 'bcrypt'
import { security } from '../../server/src/kernel/config/security.js'
import { createSequelize, databaseServer } from '../../server/src/kernel/db/database.js'
import { features } from '../../server/src/features/index.js'
import { initModels } from '../../server/src/kernel/models/index.js'
import { createUser } from '../../server/src/kernel/services/users.js'
import { freePort } from '../../server/tests/helpers/processes.js'
import { projectRoot } from './paths'

/**
 * What a layer sets for every browser test but its own (`e2e/support/env/<layer>.ts`): the CAPTCHA
 * layer turns its challenge off, as a person would not meet one on every page of the other flows;
 * its own browser test turns it back on through `env`.
 */
const layerEnv: Record<string, string> = Object.assign({}, ...Object.values(import.meta.glob<Record<string, string>>('./env/*.ts', { eager: true, import: 'env' })))

export interface SeedUser {
  name: string
  email: string
  password: string
  role?: 'admin' | 'user'
}

/** DATABASE_URL as the app would read it: the environment first, then .env. */
function configuredDatabaseUrl(): string | undefined {
  if (process.env.DATABASE_URL) return process.env.DATABASE_URL
  const file = path.join(projectRoot, '.env')
  return fs.existsSync(file) ? parseEnv(fs.readFileSync(file, 'utf8')).DATABASE_URL : undefined
}

/** A database of its own for this run: a new SQLite file, or a new database on the MySQL or PostgreSQL server. */
function freshDatabase(tmp: string): { url: string; drop(): Promise<void> } {
  const configured = configuredDatabaseUrl() ?? ''
  if (!/^(mysql|mariadb|postgres|postgresql):/.test(configured)) {
    return { url: `sqlite://${path.join(tmp, 'e2e.sqlite')}`, drop: async () => undefined }
  }
  const server = databaseServer(configured)
  // `db:migrate` creates it.
  const name = `${server.name.slice(0, 36)}_e2e_${Date.now().toString(36)}${randomBytes(2).toString('hex')}`
  return {
    url: server.urlOf(name),
    async drop() {
      try {
        await server.drop(name)
      } finally {
        await server.close()
      }
    },
  }
}

function run(script: string, args: string[], env: NodeJS.ProcessEnv): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [path.join('dist/server', script), ...args], { cwd: projectRoot, env })
    let output = ''
    child.stdout.on('data', (d) => (output += d))
    child.stderr.on('data', (d) => (output += d))
    child.on('error', reject)
    child.on('exit', (code) => (code === 0 ? resolve() : reject(new Error(`${script} ${args.join(' ')} failed (${code}):\n${output}`))))
  })
}

/**
 * Creates the users with the service `npm run user:create` calls (verified, with the role given),
 * one after another so that ids follow the order given, over one connection: a process per user
 * took half a second each, most of some files' set-up.
 */
async function seedUsers(databaseUrl: string, users: SeedUser[]): Promise<void> {
  if (users.length === 0) return
  const sequelize = createSequelize(databaseUrl)
  initModels(sequelize, features)
  // bcrypt salts every hash: one per password serves all the users who share it.
  const hashes = new Map<string, Promise<string>>()
  try {
    for (const { password, role, ...user } of users) {
      if (!hashes.has(password)) hashes.set(password, bcrypt.hash(password, security.bcryptCost))
      await createUser(features, { ...user, passwordHash: await hashes.get(password)!, role: role ?? 'user', verified: true })
    }
  } finally {
    await sequelize.close()
  }
}

/**
 * The built app as `npm start` runs it, on a free port with a fresh database: migrations
 * applied, then users created as `npm run user:create` creates them.
 */
export async function startAppServer(options: { smtpUrl?: string; users: SeedUser[]; env?: Record<string, string>; port?: number }) {
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'e2e-app-'))
  const port = options.port ?? (await freePort())
  const database = freshDatabase(tmp)
  const url = `http://localhost:${port}`
  // Set explicitly so nothing in .env (Redis, CORS, another port) changes what is tested.
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    NODE_ENV: 'production',
    PORT: String(port),
    BASE_URL: url,
    DATABASE_URL: database.url,
    SMTP_URL: options.smtpUrl ?? '',
    // Without a mail server, production mail goes to the log and storage/mail on purpose.
    MAIL_TRANSPORT: options.smtpUrl ? 'smtp' : 'log',
    REDIS_URL: '',
    CORS_ORIGINS: '',
    COOKIE_SAMESITE: 'lax',
    TRUST_PROXY: '',
    // The browser tests reach nothing outside this machine.
    PWNED_PASSWORDS: 'off',
    ...layerEnv,
    ...options.env,
  }

  await run('cli/migrate.js', [], env)
  await seedUsers(database.url, options.users)

  let log = ''
  const child: ChildProcess = spawn(process.execPath, ['dist/server/index.js'], { cwd: projectRoot, env })
  child.stdout?.on('data', (d) => (log += d))
  child.stderr?.on('data', (d) => (log += d))
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()))

  const until = Date.now() + 20_000
  for (;;) {
    if (child.exitCode !== null) throw new Error(`The server exited (${child.exitCode}):\n${log}`)
    const ok = await fetch(`${url}/api/health`).then((r) => r.ok, () => false)
    if (ok) break
    if (Date.now() > until) throw new Error(`The server did not answer /api/health within 20 s:\n${log}`)
    await new Promise((r) => setTimeout(r, 150))
  }

  return {
    url,
    log: () => log,
    async stop() {
      if (child.exitCode === null) {
        child.kill('SIGTERM')
        await Promise.race([exited, new Promise((r) => setTimeout(r, 5000))])
        if (child.exitCode === null) child.kill('SIGKILL')
      }
      await database.drop()
      fs.rmSync(tmp, { recursive: true, force: true })
    },
  }
}

export type AppServer = Awaited<ReturnType<typeof startAppServer>>
