import { randomBytes, randomUUID } from 'node:crypto'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import type { Express } from 'express'
import type { Sequelize } from 'sequelize'
import supertest from 'supertest'
import { afterAll, inject } from 'vitest'
import { createApp } from '../../src/app.js'
import { authConfig, type AuthConfig } from '../../src/kernel/config/auth.js'
import { parseEnv, type Env } from '../../src/kernel/config/env.js'
import type { AppSettings } from '../../src/kernel/config/settings.js'
import type { AppContext, AppFeatures } from '../../src/kernel/context.js'
import { createAppContext } from '../../src/create-context.js'
import { features, type AppRateLimits } from '../../src/features/index.js'
import { connectDatabase, createSequelize } from '../../src/kernel/db/database.js'
import { createLogger, type Logger } from '../../src/kernel/logger.js'
import { initModels, type RoleName, type User } from '../../src/kernel/models/index.js'
import type { AuthCacheSettings } from '../../src/kernel/auth/auth-cache.js'
import type { RetryPolicy } from '../../src/kernel/jobs/types.js'
import type { Resolver } from '../../src/kernel/webhooks/address-guard.js'
import type { BreakerPolicy } from '../../src/kernel/webhooks/breaker.js'
import { cookieNames } from '../../src/kernel/auth/cookies.js'
import { hashPassword } from '../../src/kernel/auth/passwords.js'
import { createUser } from '../../src/kernel/services/users.js'
import { cookieHeader, jar } from './cookies.js'
import { registerApp } from './openapi.js'
import { runDatabaseUrl } from './database.js'
import { testSecrets } from './processes.js'
import { startMailServer, type MailServer } from './mail.js'

export { authConfig }

export const redisUrl = inject('redisUrl')
/** Appended to the names of Redis-backed suites, so a skip says why. */
export const redisLabel = redisUrl ? '' : ` (skipped: ${inject('redisSkipReason')})`

export interface TestAppOptions {
  auth?: Partial<AuthConfig>
  /** Use the machine's Redis for sessions, rate limits and jobs. */
  redis?: boolean
  /** Extra or overriding environment variables (strings, as in .env). */
  env?: Record<string, string | undefined>
  /** Without an SMTP server the app falls back to writing mail files. */
  smtp?: boolean
  worker?: boolean
  keyPrefix?: string
  /** Base's limits and the layers' (features/index.ts `AppRateLimits`), by name. */
  rateLimits?: Partial<AppRateLimits>
  authCache?: Partial<AuthCacheSettings>
  clientDir?: string
  mailDir?: string
  retryBackoffMs?: number
  /** A connection of the app's own to this URL (a proxy a test can cut), instead of the file's shared one. */
  ownDatabaseUrl?: string
  /** Feature layers instead of the app's own (a test's stand-in at an extension point); they may add no models. */
  features?: AppFeatures
  /** Webhook retries (default: about a day's); a test compresses them. */
  webhookRetry?: RetryPolicy
  /** How webhook hosts resolve: a test's own names instead of DNS. */
  webhookResolver?: Resolver
  /** When a failing webhook endpoint is paused (default: after 5 failures, a minute); a test shortens it. */
  webhookBreaker?: BreakerPolicy
}

export interface TestApp {
  app: Express
  ctx: AppContext
  request: supertest.Agent
}

/**
 * The app's real (pino) logger writing into memory: `lines` holds what production would print,
 * one JSON object each, so a test can assert on it and the output stays quiet.
 */
export type MemoryLogger = Logger & { lines: string[]; records(): Array<Record<string, unknown>> }

export function memoryLogger(): MemoryLogger {
  const lines: string[] = []
  const logger = createLogger('test', { write: (line: string) => void lines.push(line.trimEnd()) })
  return Object.assign(logger, { lines, records: () => lines.map((line) => JSON.parse(line) as Record<string, unknown>) })
}

/**
 * Per test file: one connection to the run's database, one SMTP server, and the apps the file
 * builds (each with its own context), all closed after the file.
 */
export function useTestApps() {
  let sequelize: Sequelize | undefined
  let mail: MailServer | undefined
  const apps: AppContext[] = []
  const secrets = testSecrets()

  const tempDirs: string[] = []

  afterAll(async () => {
    // A test may have broken a connection on purpose; closing must still finish.
    for (const ctx of apps.splice(0)) await ctx.close().catch(() => {})
    await mail?.close()
    await sequelize?.close().catch(() => {})
    for (const dir of tempDirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true })
  })

  /** A fresh folder under the system temp dir, removed after the file. */
  function tempDir(prefix: string): string {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), prefix))
    tempDirs.push(dir)
    return dir
  }

  async function database(): Promise<Sequelize> {
    if (!sequelize) {
      sequelize = createSequelize(runDatabaseUrl())
      await connectDatabase(sequelize)
      initModels(sequelize, features)
    }
    return sequelize
  }

  async function mailServer(): Promise<MailServer> {
    mail ??= await startMailServer()
    return mail
  }

  async function build(options: TestAppOptions = {}): Promise<TestApp & { logger: MemoryLogger }> {
    if (options.redis && !redisUrl) throw new Error('Redis-backed test run without Redis: guard it with describe.skipIf')
    const env = parseEnv({
      NODE_ENV: 'test',
      BASE_URL: 'http://localhost:3000',
      DATABASE_URL: options.ownDatabaseUrl ?? runDatabaseUrl(),
      MAIL_FROM: 'app@example.test',
      COOKIE_SAMESITE: 'lax',
      // No test reaches the internet: breached-passwords.test.ts points the check at a local stand-in.
      PWNED_PASSWORDS: 'off',
      ...secrets,
      SMTP_URL: options.smtp === false ? undefined : (await mailServer()).url,
      REDIS_URL: options.redis ? (redisUrl ?? undefined) : undefined,
      ...options.env,
    }, options.features ?? features)
    const logger = memoryLogger()
    const ctx = await createAppContext({
      env,
      auth: options.auth,
      sequelize: options.ownDatabaseUrl ? undefined : await database(),
      keyPrefix: options.keyPrefix ?? `${inject('keyPrefix')}${randomUUID().slice(0, 8)}:`,
      logger,
      worker: options.worker,
      retry: { attempts: 3, backoffMs: options.retryBackoffMs ?? 100 },
      rateLimits: options.rateLimits,
      authCache: options.authCache,
      mailDir: options.mailDir ?? tempDir('app-mail-'),
      clientDir: options.clientDir ?? path.join(os.tmpdir(), 'no-client-build'),
      features: options.features,
      webhookRetry: options.webhookRetry,
      webhookResolver: options.webhookResolver,
      webhookBreaker: options.webhookBreaker,
    })
    apps.push(ctx)
    const app = createApp(ctx)
    registerApp(app, ctx)
    return { app, ctx, request: supertest.agent(app), logger }
  }

  return { build, mailServer, database, secrets, tempDir }
}

export const uniqueEmail = (tag = 'user') => `${tag}-${randomUUID().slice(0, 12)}@example.test`

export const PASSWORD = 'correct horse battery'
let passwordHash: Promise<string> | undefined

/** A user written straight to the database (verified unless told otherwise). */
export async function makeUser(options: { role?: RoleName; verified?: boolean; email?: string; name?: string } = {}): Promise<User> {
  passwordHash ??= hashPassword(PASSWORD)
  return createUser(features, {
    name: options.name ?? 'Test User',
    email: options.email ?? uniqueEmail(),
    passwordHash: await passwordHash,
    role: options.role ?? 'user',
    verified: options.verified ?? true,
  })
}

export interface Session {
  cookies: Record<string, string>
  accessToken: string
  res: supertest.Response
}

/** Logs in through the API and returns the cookie jar a browser would hold. */
export async function login(app: Express, email: string, password = PASSWORD, remember?: boolean): Promise<Session> {
  const res = await supertest(app)
    .post('/api/auth/login')
    .send({ email, password, ...(remember === undefined ? {} : { remember }) })
  if (res.status !== 200) throw new Error(`login failed: ${res.status} ${JSON.stringify(res.body)}`)
  return { cookies: jar(res), accessToken: res.body.access_token as string, res }
}

export const withCookies = (cookies: Record<string, string>) => ({ Cookie: cookieHeader(cookies) })

/** The app's cookie names: `names()` for a test app's defaults, `names(ctx)` for a built one. */
export const names = (settings: Pick<AppSettings, 'auth' | 'env' | 'features'> = { auth: authConfig, env: { COOKIE_HOST_PREFIX: false, NODE_ENV: 'test' } as Env, features }) =>
  cookieNames(settings)
