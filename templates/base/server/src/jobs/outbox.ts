import { Op, type Transaction } from 'sequelize'
import type { Logger } from '../logger.js'
import { OutboxJob } from '../models/index.js'
import type { JobName, JobPayloads } from './types.js'

export interface OutboxEntry {
  id: number
  name: JobName
  data: JobPayloads[JobName]
  /** Including this one. */
  attempt: number
}

/** What the loop does with a claimed entry: resolve when it is done (or handed on), throw to retry it. */
export type OutboxHandler = (entry: OutboxEntry) => Promise<void>

export interface OutboxOptions {
  /** The app's key prefix: only jobs of this queue are taken. */
  queue: string
  handle: OutboxHandler
  /** Delay before retrying after the n-th failed attempt (n from 1). */
  retryDelay: (attempt: number) => number
  /** Attempts before a job is given up (logged as an error, kept with `failedAt`); none: never. */
  maxAttempts?: number
  /** False where a failure is already reported elsewhere (the relay: Redis's own connection errors). */
  logRetries?: boolean
  logger: Logger
  /** How long a claim lasts: a claimer that died leaves the job to another instance after this. */
  lockMs?: number
  /** How often pending entries are looked for (new ones here start at once; this is for the rest). */
  pollMs?: number
}

const BATCH = 20

/**
 * What a row keeps of its job once the job is done or given up: its name and times, never the
 * addresses, names, password hashes or ids it carried (the log tells what a failure was).
 */
const SCRUBBED = '{}'

/**
 * The transactional outbox: `add` writes the job to the database before the request answers, so
 * a 2xx always stands for a stored job. A loop in every instance claims due entries, one claimer
 * each (a conditional UPDATE decides), and hands them to `handle`: the in-process worker runs
 * them, the Redis queue passes them to BullMQ. An entry whose handler failed is retried later;
 * one whose claimer died is taken over once its claim has expired. So a job survives a Redis
 * outage, an SMTP outage and the restart of every instance.
 */
export class Outbox {
  private timer: NodeJS.Timeout | undefined
  private running: Promise<void> | undefined
  private again = false
  /** The earliest retry that fell due while a pass was running. */
  private wakeIn: number | undefined
  private closed = false
  private reported = false
  private readonly lockMs: number
  private readonly pollMs: number

  constructor(private readonly options: OutboxOptions) {
    this.lockMs = options.lockMs ?? 60_000
    this.pollMs = options.pollMs ?? 1000
    this.schedule(0)
  }

  /** In `transaction`, the job exists only if the transaction commits, and is looked at once it has. */
  async add<K extends JobName>(name: K, data: JobPayloads[K], transaction?: Transaction): Promise<void> {
    if (this.closed) throw new Error('The job queue is closed.')
    const now = new Date()
    await OutboxJob.create({ queue: this.options.queue, name, payload: JSON.stringify(data), availableAt: now, createdAt: now }, { transaction })
    if (transaction) transaction.afterCommit(() => this.schedule(0))
    else this.schedule(0)
  }

  async close(): Promise<void> {
    this.closed = true
    clearTimeout(this.timer)
    await this.running
  }

  private schedule(delayMs: number): void {
    if (this.closed) return
    if (this.running) {
      // A pass is under way: the next one starts when it ends, or when this wants it sooner.
      if (delayMs === 0) this.again = true
      else this.wakeIn = Math.min(this.wakeIn ?? delayMs, delayMs)
      return
    }
    clearTimeout(this.timer)
    this.timer = setTimeout(() => this.pass(), delayMs)
    this.timer.unref()
  }

  private pass(): void {
    this.again = false
    this.running = this.drain()
      .then(() => {
        this.reported = false
      })
      .catch((error: unknown) => {
        // The database is down: say it once, and keep looking every poll.
        if (!this.reported) this.options.logger.warn({ err: error }, 'Job outbox: cannot read pending jobs (will retry)')
        this.reported = true
      })
      .finally(() => {
        this.running = undefined
        const next = this.again ? 0 : Math.min(this.pollMs, this.wakeIn ?? this.pollMs)
        this.wakeIn = undefined
        this.schedule(next)
      })
  }

  private async drain(): Promise<void> {
    for (;;) {
      const now = new Date()
      const due = await OutboxJob.findAll({
        attributes: ['id'],
        where: {
          queue: this.options.queue,
          finishedAt: null,
          failedAt: null,
          availableAt: { [Op.lte]: now },
          [Op.or]: [{ lockedUntil: null }, { lockedUntil: { [Op.lt]: now } }],
        },
        order: [['id', 'ASC']],
        limit: BATCH,
      })
      if (due.length === 0 || this.closed) return
      await Promise.all(due.map((row) => this.claimAndHandle(row.id)))
      if (due.length < BATCH) return
    }
  }

  private async claimAndHandle(id: number): Promise<void> {
    const now = new Date()
    const [claimed] = await OutboxJob.update(
      { lockedUntil: new Date(now.getTime() + this.lockMs) },
      { where: { id, finishedAt: null, failedAt: null, [Op.or]: [{ lockedUntil: null }, { lockedUntil: { [Op.lt]: now } }] } },
    )
    if (claimed !== 1) return
    const row = await OutboxJob.findByPk(id)
    if (!row) return
    const attempt = row.attempts + 1
    const entry: OutboxEntry = { id, name: row.name as JobName, data: JSON.parse(row.payload) as JobPayloads[JobName], attempt }
    try {
      await this.options.handle(entry)
      await OutboxJob.update({ finishedAt: new Date(), attempts: attempt, lockedUntil: null, payload: SCRUBBED }, { where: { id } })
    } catch (error) {
      const { maxAttempts } = this.options
      if (maxAttempts !== undefined && attempt >= maxAttempts) {
        this.options.logger.error({ job: entry.name, err: error }, `Job ${entry.name} failed for good after ${attempt} attempt(s)`)
        await OutboxJob.update({ failedAt: new Date(), attempts: attempt, lockedUntil: null, payload: SCRUBBED }, { where: { id } })
        return
      }
      const delay = this.options.retryDelay(attempt)
      const of = maxAttempts === undefined ? '' : `/${maxAttempts}`
      if (this.options.logRetries !== false) {
        this.options.logger.warn({ job: entry.name, err: error }, `Job ${entry.name} failed (attempt ${attempt}${of}), retrying in ${delay} ms`)
      }
      await OutboxJob.update({ availableAt: new Date(Date.now() + delay), attempts: attempt, lockedUntil: null }, { where: { id } })
      this.schedule(delay)
    }
  }
}
