import { Queue, Worker } from 'bullmq'
import { Redis } from 'ioredis'
import type { Logger } from '../logger.js'
import { runJob, type JobHandlers, type JobName, type JobPayloads, type JobQueue, type RetryPolicy } from './types.js'

const QUEUE_NAME = 'jobs'

/**
 * BullMQ on Redis. `worker: false` only enqueues (a server whose jobs run in `npm run worker`);
 * the server runs a worker in-process by default.
 */
export class RedisQueue implements JobQueue {
  readonly driver = 'redis'
  private readonly connections: Redis[] = []
  private readonly queue: Queue
  private readonly worker: Worker | undefined

  constructor(options: {
    url: string
    prefix: string
    handlers: JobHandlers
    retry: RetryPolicy
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
    // BullMQ needs commands to wait for a reconnect rather than fail after a few retries.
    const connect = () => {
      const connection = new Redis(url, { maxRetriesPerRequest: null })
      connection.on('error', (error) => warnOnce(`Redis (jobs): ${error.message}`))
      connection.on('ready', () => reported.clear())
      this.connections.push(connection)
      return connection
    }
    this.queue = new Queue(QUEUE_NAME, {
      connection: connect(),
      prefix,
      defaultJobOptions: {
        attempts: retry.attempts,
        backoff: { type: 'exponential', delay: retry.backoffMs },
        // A finished job's data (an address, a registration's bcrypt hash) has no reason to stay.
        removeOnComplete: true,
        removeOnFail: 5000,
      },
    })
    this.queue.on('error', (error) => warnOnce(`Job queue: ${error.message}`))
    if (options.worker) {
      this.worker = new Worker(QUEUE_NAME, (job) => runJob(handlers, job.name as JobName, job.data), {
        connection: connect(),
        prefix,
        concurrency: 5,
      })
      this.worker.on('failed', (job, error) =>
        logger.warn({ job: job?.name, err: error }, `Job ${job?.name} failed (attempt ${job?.attemptsMade}/${retry.attempts})`),
      )
      this.worker.on('error', (error) => warnOnce(`Job worker: ${error.message}`))
    }
  }

  async dispatch<K extends JobName>(name: K, data: JobPayloads[K]): Promise<void> {
    await this.queue.add(name, data)
  }

  /**
   * Lets running jobs finish, but never waits for Redis itself: while it is down, BullMQ's close()
   * would wait for a connection forever (and a stopped server would never exit). After the grace
   * period the connections are dropped; an interrupted job is retried once its lock expires.
   */
  async close(graceMs = 5000): Promise<void> {
    // With Redis unreachable nothing can finish cleanly anyway: drop the connections at once.
    if (!this.connections.every((connection) => connection.status === 'ready')) graceMs = 0
    const graceful = (async () => {
      await this.worker?.close()
      await this.queue.close()
    })().catch(() => {})
    let timer: NodeJS.Timeout | undefined
    await Promise.race([graceful, new Promise<void>((resolve) => (timer = setTimeout(resolve, graceMs)))])
    clearTimeout(timer)
    for (const connection of this.connections) connection.disconnect()
  }
}
