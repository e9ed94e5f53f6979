import type { Logger } from '../logger.js'
import { runJob, type JobHandlers, type JobName, type JobPayloads, type JobQueue, type RetryPolicy } from './types.js'

/**
 * The queue without Redis: jobs run in this process after the response, with the same retry
 * policy as BullMQ. Jobs still pending when the process stops are lost.
 */
export class MemoryQueue implements JobQueue {
  readonly driver = 'memory'
  private readonly running = new Set<Promise<void>>()
  private readonly timers = new Set<NodeJS.Timeout>()
  private closed = false

  constructor(
    private readonly handlers: JobHandlers,
    private readonly retry: RetryPolicy,
    private readonly logger: Logger,
  ) {}

  async dispatch<K extends JobName>(name: K, data: JobPayloads[K]): Promise<void> {
    if (this.closed) throw new Error('The job queue is closed.')
    this.schedule(name, data, 1, 0)
  }

  private schedule<K extends JobName>(name: K, data: JobPayloads[K], attempt: number, delayMs: number): void {
    const timer = setTimeout(() => {
      this.timers.delete(timer)
      const run = this.attempt(name, data, attempt).finally(() => this.running.delete(run))
      this.running.add(run)
    }, delayMs)
    this.timers.add(timer)
  }

  private async attempt<K extends JobName>(name: K, data: JobPayloads[K], attempt: number): Promise<void> {
    try {
      await runJob(this.handlers, name, data)
    } catch (error) {
      if (attempt < this.retry.attempts && !this.closed) {
        const delay = this.retry.backoffMs * 2 ** (attempt - 1)
        this.logger.warn({ job: name, err: error }, `Job ${name} failed (attempt ${attempt}/${this.retry.attempts}), retrying in ${delay} ms`)
        this.schedule(name, data, attempt + 1, delay)
      } else {
        this.logger.error({ job: name, err: error }, `Job ${name} failed for good after ${attempt} attempt(s)`)
      }
    }
  }

  async close(): Promise<void> {
    this.closed = true
    for (const timer of this.timers) clearTimeout(timer)
    this.timers.clear()
    await Promise.allSettled([...this.running])
  }
}
