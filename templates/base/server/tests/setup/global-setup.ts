import { randomBytes } from 'node:crypto'
import fs from 'node:fs'
import { parseEnv as parseDotEnv } from 'node:util'
import { Redis } from 'ioredis'
import type { TestProject } from 'vitest/node'
import { project } from '../../src/kernel/config/project.js'
import { connectDatabase, createSequelize } from '../../src/kernel/db/database.js'
import { createMigrator } from '../../src/kernel/db/migrator.js'
import { features } from '../../src/features/index.js'
import { paths } from '../../src/kernel/paths.js'
import { emptyDatabase, type TestDatabase } from '../helpers/database.js'

declare module 'vitest' {
  export interface ProvidedContext {
    /** A fresh, migrated database for each of the run's workers, in pool-id order (see helpers/database.ts). */
    databaseUrls: string[]
    /** Redis for the Redis-backed paths, or null when it is unreachable (see redisSkipReason). */
    redisUrl: string | null
    redisSkipReason: string
    /** Namespace for this run's Redis keys, deleted afterwards. */
    keyPrefix: string
  }
}

/**
 * One database per worker, in the dialect of the app's DATABASE_URL: SQLite in a temporary file,
 * MySQL or PostgreSQL as a new database on the same server, dropped at the end. A worker runs its
 * files one after another, so each file has the database to itself, as in a one-worker run.
 */
export default async function setup(projectHandle: TestProject) {
  const run = `${Date.now().toString(36)}${randomBytes(3).toString('hex')}`
  const dotEnv = fs.existsSync(paths.env) ? parseDotEnv(fs.readFileSync(paths.env, 'utf8')) : {}
  const appUrl = process.env.DATABASE_URL || dotEnv.DATABASE_URL || project.defaultDatabaseUrl
  const workers = projectHandle.config.maxWorkers || projectHandle.vitest.config.maxWorkers

  const databases = await Promise.all(Array.from({ length: workers }, (_, index) => migratedDatabase(appUrl, `test_${run}_${index + 1}`)))

  const explicitRedis = process.env.TEST_REDIS_URL
  const redisUrl = explicitRedis || 'redis://127.0.0.1:6379'
  let redisReachable = await ping(redisUrl)
  if (!redisReachable && explicitRedis) {
    throw new Error(`TEST_REDIS_URL=${explicitRedis} is set but Redis does not answer there.`)
  }
  const redisSkipReason = redisReachable ? '' : `Redis unreachable at ${redisUrl} and TEST_REDIS_URL unset`
  if (!redisReachable) console.warn(`\n[tests] Skipping the Redis-backed tests: ${redisSkipReason}.\n`)
  const keyPrefix = `test-${run}:`

  projectHandle.provide('databaseUrls', databases.map((database) => database.url))
  projectHandle.provide('redisUrl', redisReachable ? redisUrl : null)
  projectHandle.provide('redisSkipReason', redisSkipReason)
  projectHandle.provide('keyPrefix', keyPrefix)

  return async () => {
    await Promise.all(databases.map((database) => database.drop()))
    if (redisReachable) {
      const redis = new Redis(redisUrl)
      const keys = await redis.keys(`${keyPrefix}*`)
      if (keys.length > 0) await redis.del(...keys)
      await redis.quit()
      redisReachable = false
    }
  }
}

/** An empty database of the app's dialect, migrated. */
async function migratedDatabase(appUrl: string, name: string): Promise<TestDatabase> {
  const database = await emptyDatabase(appUrl, name)
  const sequelize = createSequelize(database.url)
  await connectDatabase(sequelize)
  await createMigrator(sequelize, features).up()
  await sequelize.close()
  return database
}

async function ping(url: string): Promise<boolean> {
  const redis = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 0, retryStrategy: () => null, connectTimeout: 2000 })
  redis.on('error', () => {})
  try {
    await redis.connect()
    return (await redis.ping()) === 'PONG'
  } catch {
    return false
  } finally {
    redis.disconnect()
  }
}
