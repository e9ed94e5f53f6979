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
    // BullMQ needs commands to wait for a reconnect rather than fail after a few retries.
    const connect = () => {
      const connection = new Redis(url, { maxRetriesPerRequest: null })
      connection.on('error', (error) => logger.warn(`Redis (jobs): ${error.message}`))
      this.connections.push(connection)
      return connection
    }
    this.queue = new Queue(QUEUE_NAME, {
      connection: connect(),
      prefix,
      defaultJobOptions: {
        attempts: retry.attempts,
        backoff: { type: 'exponential', delay: retry.backoffMs },
        removeOnComplete: 1000,
        removeOnFail: 5000,
      },
    })
    this.queue.on('error', (error) => logger.warn(`Job queue: ${error.message}`))
    if (options.worker) {
      this.worker = new Worker(QUEUE_NAME, (job) => runJob(handlers, job.name as JobName, job.data), {
        connection: connect(),
        prefix,
        concurrency: 5,
      })
      this.worker.on('failed', (job, error) =>
        logger.warn(`Job ${job?.name} failed (attempt ${job?.attemptsMade}/${retry.attempts}): ${error.message}`),
      )
      this.worker.on('error', (error) => logger.warn(`Job worker: ${error.message}`))
    }
  }

  async dispatch<K extends JobName>(name: K, data: JobPayloads[K]): Promise<void> {
    await this.queue.add(name, data)
  }

  async close(): Promise<void> {
    await this.worker?.close()
    await this.queue.close()
    await Promise.allSettled(this.connections.map((connection) => connection.quit()))
  }
}
