import type { Transaction } from 'sequelize'
import type { Logger } from '../logger.js'
import { Outbox } from './outbox.js'
import { retryDelay, retryPolicyOf, runJob, type JobHandlers, type JobName, type JobPayloads, type JobQueue, type RetryPolicies } from './types.js'

/**
 * The queue without Redis: jobs are stored in the outbox (kernel/jobs/outbox.ts) and run by the
 * instances themselves, right after the response, with the retry policy BullMQ would apply.
 * A job an instance did not finish (it stopped, or crashed) is run by another one, or by this
 * one after its restart.
 */
export class InProcessQueue implements JobQueue {
  readonly driver = 'in-process'
  private readonly outbox: Outbox

  constructor(queue: string, handlers: JobHandlers, retry: RetryPolicies, logger: Logger) {
    this.outbox = new Outbox({
      queue,
      handle: (entry) => runJob(handlers, entry.name, entry.data),
      retryDelay: (attempt, name) => retryDelay(retryPolicyOf(retry, name), attempt),
      maxAttempts: (name) => retryPolicyOf(retry, name).attempts,
      logger,
    })
  }

  dispatch<K extends JobName>(name: K, data: JobPayloads[K], transaction?: Transaction): Promise<void> {
    return this.outbox.add(name, data, transaction)
  }

  close(): Promise<void> {
    return this.outbox.close()
  }
}
