import type { Transaction } from 'sequelize'
import { DelayedError, Queue, Worker } from 'bullmq'
import { Redis } from 'ioredis'
import type { Logger } from '../logger.js'
import { Outbox } from './outbox.js'
import { retryDelay, retryPolicyOf, RetryLater, runJob, type JobHandlers, type JobName, type JobPayloads, type JobQueue, type RetryPolicies } from './types.js'

/**
 * Two BullMQ queues, each with its own workers: the shared lane's jobs (mail, notices, pruning)
 * and the laned ones (webhook messages, kernel/jobs/types.ts `laneOf`). A backlog of messages to a
 * receiver that never answers then waits in its own queue, never in front of a reset mail.
 */
const SHARED_QUEUE = 'jobs'
const LANED_QUEUE = 'webhooks'

/**
 * BullMQ on Redis, fed by the outbox (kernel/jobs/outbox.ts): a request stores its job in the database,
 * and the outbox loop of whichever instance claims it adds it to BullMQ (under the outbox id, so
 * BullMQ takes it once however often it is offered). While Redis is down the jobs wait in the
 * database and go out within a second of its return. `worker: false` only relays (a server whose
 * jobs run in `npm run worker`); the server runs a worker in-process by default.
 */
export class RedisQueue implements JobQueue {
  readonly driver = 'redis'
  private readonly connections: Redis[] = []
  private readonly queues: Record<'shared' | 'laned', Queue>
  private readonly workers: Worker[] = []
  private readonly outbox: Outbox

  constructor(options: {
    url: string
    prefix: string
    /** The outbox queue: the app's key prefix. */
    queue: string
    handlers: JobHandlers
    retry: RetryPolicies
    worker: boolean
    logger: Logger
  }) {
    const { url, prefix, handlers, retry, logger } = options
    // While Redis is down every reconnect attempt fails the same way: say each thing once.
    const reported = new Set<string>()
    const warnOnce = (message: string) => {
      if (reported.has(message)) return
      reported.add(message)
      logger.warn(message)
    }
    // The worker's commands wait for a reconnect (BullMQ needs that); the producer's fail at
    // once, so the outbox keeps a job that could not be added and offers it again.
    const connect = (producer = false) => {
      const connection = new Redis(
        url,
        // Reconnect attempts at most a second apart: jobs flow again within about a second of Redis's return.
        { retryStrategy: (n: number) => Math.min(n * 100, 1000), ...(producer ? { enableOfflineQueue: false, maxRetriesPerRequest: 1 } : { maxRetriesPerRequest: null }) },
      )
      connection.on('error', (error) => warnOnce(`Redis (jobs): ${error.message}`))
      connection.on('ready', () => reported.clear())
      this.connections.push(connection)
      return connection
    }
    const queue = (name: string) => {
      const made = new Queue(name, {
        connection: connect(true),
        prefix,
        defaultJobOptions: {
          attempts: retry.default.attempts,
          backoff: { type: 'capped' },
          // A finished job's data (an address, a registration's bcrypt hash) has no reason to stay.
          removeOnComplete: true,
          removeOnFail: 5000,
        },
      })
      made.on('error', (error) => warnOnce(`Job queue: ${error.message}`))
      return made
    }
    this.queues = { shared: queue(SHARED_QUEUE), laned: queue(LANED_QUEUE) }
    this.outbox = new Outbox({
      queue: options.queue,
      handle: async (entry) => {
        const to = entry.lane === null ? this.queues.shared : this.queues.laned
        await to.add(entry.name, entry.data, { jobId: `outbox-${entry.id}`, attempts: retryPolicyOf(retry, entry.name).attempts })
      },
      // Handing on fails only while Redis is down: keep offering every second, never give up.
      retryDelay: () => 1000,
      logRetries: false,
      logger,
    })
    if (options.worker) {
      for (const name of [SHARED_QUEUE, LANED_QUEUE]) {
        const worker = new Worker(
          name,
          async (job, token) => {
            try {
              await runJob(handlers, job.name as JobName, job.data)
            } catch (error) {
              if (!(error instanceof RetryLater)) throw error
              // Not an attempt: BullMQ's way of putting a job back without counting it.
              await job.moveToDelayed(Date.now() + error.delayMs, token)
              throw new DelayedError()
            }
          },
          {
            connection: connect(),
            prefix,
            // Jobs mostly wait on the network (SMTP, webhook receivers): a slow one must not hold the rest.
            concurrency: 20,
            settings: { backoffStrategy: (attemptsMade: number, _type?: string, _error?: Error, job?: { name: string }) => retryDelay(retryPolicyOf(retry, job?.name ?? ''), attemptsMade) },
          },
        )
        worker.on('failed', (job, error) =>
          logger.warn({ job: job?.name, err: error }, `Job ${job?.name} failed (attempt ${job?.attemptsMade}/${retryPolicyOf(retry, job?.name ?? '').attempts})`),
        )
        worker.on('error', (error) => warnOnce(`Job worker: ${error.message}`))
        this.workers.push(worker)
      }
    }
  }

  dispatch<K extends JobName>(name: K, data: JobPayloads[K], transaction?: Transaction): Promise<void> {
    return this.outbox.add(name, data, transaction)
  }

  /**
   * Lets running jobs finish, but never waits for Redis itself: while it is down, BullMQ's close()
   * would wait for a connection forever (and a stopped server would never exit). After the grace
   * period the connections are dropped; an interrupted job is retried once its lock expires.
   */
  async close(graceMs = 5000): Promise<void> {
    // With Redis unreachable nothing can finish cleanly anyway: drop the connections at once.
    if (!this.connections.every((connection) => connection.status === 'ready')) graceMs = 0
    await this.outbox.close()
    const graceful = (async () => {
      await Promise.all(this.workers.map((worker) => worker.close()))
      await Promise.all(Object.values(this.queues).map((queue) => queue.close()))
    })().catch(() => {})
    let timer: NodeJS.Timeout | undefined
    await Promise.race([graceful, new Promise<void>((resolve) => (timer = setTimeout(resolve, graceMs)))])
    clearTimeout(timer)
    for (const connection of this.connections) connection.disconnect()
  }
}
