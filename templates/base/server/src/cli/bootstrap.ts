import type { Sequelize } from 'sequelize'
import { EnvError, loadEnv, type Env } from '../kernel/config/env.js'
import { project } from '../kernel/config/project.js'
import { connectDatabase, createSequelize, redactDatabaseUrl } from '../kernel/db/database.js'
import { pendingMigrations } from '../kernel/db/migrator.js'
import { FeatureOrderError, orderFeatures } from '../kernel/feature-order.js'
import { features as registry } from '../features/index.js'

/**
 * The command-line entry points hand the feature layers down, as create-context.ts does for the
 * server, in their `after` order: a registry that cannot be put in order stops every entry point
 * with its one line, before anything else runs.
 */
export const features = inOrderOrExit()

/** Prints one line per problem and exits 1: start-up errors are for people, not stack traces. */
export function exitWith(lines: string | string[]): never {
  for (const line of ([] as string[]).concat(lines)) console.error(line)
  process.exit(1)
}

function inOrderOrExit() {
  try {
    return orderFeatures(registry)
  } catch (error) {
    if (error instanceof FeatureOrderError) exitWith(error.message)
    throw error
  }
}

export function loadEnvOrExit(): Env {
  try {
    return loadEnv(features)
  } catch (error) {
    if (error instanceof EnvError) exitWith(error.lines)
    throw error
  }
}

export async function connectOrExit(env: Env): Promise<Sequelize> {
  const sequelize = createSequelize(env.DATABASE_URL)
  try {
    await connectDatabase(sequelize)
  } catch (error) {
    exitWith(`Cannot connect to the database at ${redactDatabaseUrl(env.DATABASE_URL)}: ${(error as Error).message}`)
  }
  return sequelize
}

export async function refuseWithPendingMigrations(sequelize: Sequelize): Promise<void> {
  const pending = await pendingMigrations(sequelize, features)
  if (pending.length > 0) {
    await sequelize.close()
    exitWith(
      `The database has ${pending.length} pending migration(s) (${pending.join(', ')}). Run "${project.migrateCommand}" first.`,
    )
  }
}
