import { createAppContext } from '../create-context.js'
import { connectOrExit, exitWith, loadEnvOrExit, refuseWithPendingMigrations } from './bootstrap.js'

// A worker of its own, for deployments that run jobs outside the web process (WORKER=false there).
const env = loadEnvOrExit()
if (!env.REDIS_URL) exitWith('REDIS_URL is not set: without Redis, jobs run inside the server process and no worker is needed.')
const sequelize = await connectOrExit(env)
await refuseWithPendingMigrations(sequelize)
const ctx = await createAppContext({ env, sequelize, worker: true })
ctx.logger.info(`Worker started: processing ${Object.keys(ctx.jobHandlers).join(', ')}`)

async function stop() {
  await ctx.close()
  await sequelize.close()
  process.exit(0)
}
process.on('SIGINT', () => void stop())
process.on('SIGTERM', () => void stop())
