import { randomBytes } from 'node:crypto'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { parseEnv as parseDotEnv } from 'node:util'
import { Redis } from 'ioredis'
import type { TestProject } from 'vitest/node'
import { project } from '../../src/config/project.js'
import { connectDatabase, createSequelize, databaseServer, dialectOf } from '../../src/db/database.js'
import { createMigrator } from '../../src/db/migrator.js'
import { paths } from '../../src/paths.js'

declare module 'vitest' {
  export interface ProvidedContext {
    /** A fresh, migrated database for this run. */
    databaseUrl: string
    /** Redis for the Redis-backed paths, or null when it is unreachable (see redisSkipReason). */
    redisUrl: string | null
    redisSkipReason: string
    /** Namespace for this run's Redis keys, deleted afterwards. */
    keyPrefix: string
  }
}

/**
 * One database per run, in the dialect of the app's DATABASE_URL: SQLite in a temporary file,
 * MySQL or PostgreSQL as a new database on the same server, dropped at the end.
 */
export default async function setup(projectHandle: TestProject) {
  const run = `${Date.now().toString(36)}${randomBytes(3).toString('hex')}`
  const dotEnv = fs.existsSync(paths.env) ? parseDotEnv(fs.readFileSync(paths.env, 'utf8')) : {}
  const appUrl = process.env.DATABASE_URL || dotEnv.DATABASE_URL || project.defaultDatabaseUrl

  let databaseUrl: string
  let dropDatabase: () => Promise<void>
  if (dialectOf(appUrl) === 'sqlite') {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'app-tests-'))
    databaseUrl = `sqlite:${path.join(dir, 'test.sqlite')}`
    dropDatabase = async () => fs.rmSync(dir, { recursive: true, force: true })
  } else {
    const server = databaseServer(appUrl)
    const name = `${server.name.replace(/\W/g, '_').slice(0, 40)}_test_${run}`
    await server.create(name)
    databaseUrl = server.urlOf(name)
    dropDatabase = async () => {
      await server.drop(name)
      await server.close()
    }
  }

  const sequelize = createSequelize(databaseUrl)
  await connectDatabase(sequelize)
  await createMigrator(sequelize).up()
  await sequelize.close()

  const explicitRedis = process.env.TEST_REDIS_URL
  const redisUrl = explicitRedis || 'redis://127.0.0.1:6379'
  let redisReachable = await ping(redisUrl)
  if (!redisReachable && explicitRedis) {
    throw new Error(`TEST_REDIS_URL=${explicitRedis} is set but Redis does not answer there.`)
  }
  const redisSkipReason = redisReachable ? '' : `Redis unreachable at ${redisUrl} and TEST_REDIS_URL unset`
  if (!redisReachable) console.warn(`\n[tests] Skipping the Redis-backed tests: ${redisSkipReason}.\n`)
  const keyPrefix = `test-${run}:`

  projectHandle.provide('databaseUrl', databaseUrl)
  projectHandle.provide('redisUrl', redisReachable ? redisUrl : null)
  projectHandle.provide('redisSkipReason', redisSkipReason)
  projectHandle.provide('keyPrefix', keyPrefix)

  return async () => {
    await dropDatabase()
    if (redisReachable) {
      const redis = new Redis(redisUrl)
      const keys = await redis.keys(`${keyPrefix}*`)
      if (keys.length > 0) await redis.del(...keys)
      await redis.quit()
      redisReachable = false
    }
  }
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
