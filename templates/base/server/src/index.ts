import type { Server, ServerResponse } from 'node:http'
import { createApp } from './app.js'
import { connectOrExit, exitWith, loadEnvOrExit, refuseWithPendingMigrations } from './cli/bootstrap.js'
import { createAppContext } from './create-context.js'

const env = loadEnvOrExit()
const sequelize = await connectOrExit(env)
await refuseWithPendingMigrations(sequelize)

// WORKER=false leaves queued jobs to `npm run worker` (only meaningful with REDIS_URL).
const ctx = await createAppContext({ env, sequelize, worker: process.env.WORKER !== 'false' })
const app = createApp(ctx)

const server: Server = app.listen(env.PORT)
server.on('listening', () => {
  const jobs = ctx.queue.driver === 'redis' ? 'outbox + BullMQ on Redis' : 'outbox + in-process worker'
  const mail = ctx.mailer.transport === 'smtp' ? 'SMTP' : 'log + storage/mail'
  ctx.logger.info(`Listening on port ${env.PORT} (${env.BASE_URL}) — ${env.NODE_ENV}, jobs: ${jobs}, mail: ${mail}`)
})
server.on('error', (error: NodeJS.ErrnoException) => {
  exitWith(error.code === 'EADDRINUSE' ? `Port ${env.PORT} is already in use: set PORT in .env.` : `Cannot listen: ${error.message}`)
})

let stopping = false
// While draining, every answer closes its connection, those in flight when the signal came
// included: a proxy's kept-alive connection delivers what it already holds, hears
// `Connection: close`, and opens its next one to another instance.
const inFlight = new Set<ServerResponse>()
server.prependListener('request', (_req, res: ServerResponse) => {
  if (stopping) res.shouldKeepAlive = false
  inFlight.add(res)
  res.once('close', () => inFlight.delete(res))
})
function closeAfterAnswer(res: ServerResponse) {
  if (!res.headersSent) res.shouldKeepAlive = false
  else res.once('finish', () => res.socket?.end())
}

async function stop(signal: string) {
  if (stopping) return
  stopping = true
  ctx.logger.info(`${signal} received, shutting down`)
  // Whatever a dependency does, the process ends: a stop signal must never leave it hanging.
  setTimeout(() => {
    ctx.logger.warn('Shutdown took longer than 10 s; exiting anyway.')
    process.exit(1)
  }, 10_000).unref()
  // Requests already received finish before the database and Redis clients close under them.
  for (const res of inFlight) closeAfterAnswer(res)
  const drained = new Promise((resolve) => server.close(resolve))
  server.closeIdleConnections()
  await drained
  await ctx.close()
  await sequelize.close()
  process.exit(0)
}
process.on('SIGINT', () => void stop('SIGINT'))
process.on('SIGTERM', () => void stop('SIGTERM'))
