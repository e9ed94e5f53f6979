import { Op, type Transaction } from 'sequelize'
import type { Logger } from '../logger.js'
import { OutboxJob } from '../models/index.js'
import { laneOf, RetryLater, type JobName, type JobPayloads } from './types.js'

export interface OutboxEntry {
  id: number
  name: JobName
  data: JobPayloads[JobName]
  /** Including this one. */
  attempt: number
  lane: string | null
}

/** What the loop does with a claimed entry: resolve when it is done (or handed on), throw to retry it. */
export type OutboxHandler = (entry: OutboxEntry) => Promise<void>

export interface OutboxOptions {
  /** The app's key prefix: only jobs of this queue are taken. */
  queue: string
  handle: OutboxHandler
  /** Delay before retrying a job after its n-th failed attempt (n from 1). */
  retryDelay: (attempt: number, name: JobName) => number
  /** Attempts before a job is given up (logged as an error, kept with `failedAt`); none: never. */
  maxAttempts?: (name: JobName) => number
  /** False where a failure is already reported elsewhere (the relay: Redis's own connection errors). */
  logRetries?: boolean
  logger: Logger
  /** How long a claim lasts: a claimer that died leaves the job to another instance after this. */
  lockMs?: number
  /** How often pending entries are looked for (new ones here start at once; this is for the rest). */
  pollMs?: number
}

/** Jobs of the shared lane (mail, notices, pruning) handled at once by one instance. */
const BATCH = 20
/** Jobs of the other lanes (a webhook endpoint's each) handled at once by one instance, all lanes together... */
const LANE_SLOTS = 20
/** ...and of one lane: a receiver that hangs holds this many slots at most, and never the shared lane's. */
const LANE_IN_FLIGHT = 8
/** Lanes with due jobs looked at in one pass (an app has a few webhook endpoints, not hundreds). */
const LANES_PER_PASS = 100

/**
 * Writes a job for `queue`'s instances to run: what `Outbox.add` does, for a process that runs no
 * outbox of its own (a command-line script); a server picks the job up within a poll.
 */
export async function storeJob<K extends JobName>(queue: string, name: K, data: JobPayloads[K], transaction?: Transaction): Promise<void> {
  const now = new Date()
  await OutboxJob.create({ queue, name, lane: laneOf(name, data), payload: JSON.stringify(data), availableAt: now, createdAt: now }, { transaction })
}

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
  /** Jobs being handled: a slow one (a webhook to a receiver that hangs) holds its own slot, not the others'. */
  private readonly handling = new Set<Promise<void>>()
  /** Slots taken: the shared lane's, the other lanes' together, and each of those lanes'. */
  private shared = 0
  private laned = 0
  private readonly inLane = new Map<string, number>()
  /** Lanes whose handler said "not now" (a busy or paused endpoint): not claimed from until then. */
  private readonly heldUntil = new Map<string, number>()
  /** The lane last claimed from: the next pass starts after it (round robin). */
  private lastLane = ''

  constructor(private readonly options: OutboxOptions) {
    this.lockMs = options.lockMs ?? 60_000
    this.pollMs = options.pollMs ?? 1000
    this.schedule(0)
  }

  /** In `transaction`, the job exists only if the transaction commits, and is looked at once it has. */
  async add<K extends JobName>(name: K, data: JobPayloads[K], transaction?: Transaction): Promise<void> {
    if (this.closed) throw new Error('The job queue is closed.')
    await storeJob(this.options.queue, name, data, transaction)
    if (transaction) transaction.afterCommit(() => this.schedule(0))
    else this.schedule(0)
  }

  async close(): Promise<void> {
    this.closed = true
    clearTimeout(this.timer)
    await this.running
    await Promise.all(this.handling)
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

  /**
   * Claims due entries for the free slots and hands each on without waiting for the others: a
   * handler that takes its time (up to a webhook's timeout) delays no other job. The shared lane
   * is claimed oldest first; the other lanes in turns, each up to its own few slots, so however
   * many messages wait for one endpoint, a new reset mail or another endpoint's message is taken
   * in the next pass. Claimed rows are locked, so the next pass skips those still being handled.
   */
  private async drain(): Promise<void> {
    const now = new Date()
    const claimable = {
      queue: this.options.queue,
      finishedAt: null,
      failedAt: null,
      availableAt: { [Op.lte]: now },
      [Op.or]: [{ lockedUntil: null }, { lockedUntil: { [Op.lt]: now } }],
    }
    for (const [lane, until] of this.heldUntil) if (until <= now.getTime()) this.heldUntil.delete(lane)
    const ids: number[] = []
    if (this.shared < BATCH) {
      const due = await OutboxJob.findAll({ attributes: ['id'], where: { ...claimable, lane: null }, order: [['id', 'ASC']], limit: BATCH - this.shared })
      ids.push(...due.map((row) => row.id))
    }
    let free = LANE_SLOTS - this.laned
    if (free > 0) {
      const rows = await OutboxJob.findAll({ attributes: ['lane'], where: { ...claimable, lane: { [Op.ne]: null } }, group: ['lane'], order: [['lane', 'ASC']], limit: LANES_PER_PASS })
      const lanes = rows.map((row) => row.lane!).filter((lane) => !this.heldUntil.has(lane))
      const turn = lanes.findIndex((lane) => lane > this.lastLane)
      const ordered = turn < 0 ? lanes : [...lanes.slice(turn), ...lanes.slice(0, turn)]
      for (const lane of ordered) {
        const take = Math.min(free, LANE_IN_FLIGHT - (this.inLane.get(lane) ?? 0))
        if (take <= 0) continue
        const due = await OutboxJob.findAll({ attributes: ['id'], where: { ...claimable, lane }, order: [['id', 'ASC']], limit: take })
        ids.push(...due.map((row) => row.id))
        free -= due.length
        this.lastLane = lane
        if (free <= 0) break
      }
    }
    if (ids.length === 0 || this.closed) return
    const claims = await Promise.all(ids.map((id) => this.claim(id)))
    for (const entry of claims) if (entry) this.start(entry)
  }

  private start(entry: OutboxEntry): void {
    this.take(entry.lane, 1)
    const handled: Promise<void> = this.handle(entry)
      .catch((error: unknown) => this.options.logger.error({ err: error, job: entry.name }, 'Job outbox: cannot record a job\'s outcome'))
      .finally(() => {
        this.handling.delete(handled)
        // A slot is free again: whatever waited for it goes now.
        if (this.take(entry.lane, -1)) this.schedule(0)
      })
    this.handling.add(handled)
  }

  /** Counts slots taken (or given back); whether the lane or its pool was full before. */
  private take(lane: string | null, count: 1 | -1): boolean {
    if (lane === null) {
      const full = this.shared >= BATCH
      this.shared += count
      return full
    }
    const inLane = this.inLane.get(lane) ?? 0
    const full = this.laned >= LANE_SLOTS || inLane >= LANE_IN_FLIGHT
    this.laned += count
    if (inLane + count > 0) this.inLane.set(lane, inLane + count)
    else this.inLane.delete(lane)
    return full
  }

  private async claim(id: number): Promise<OutboxEntry | undefined> {
    const now = new Date()
    const [claimed] = await OutboxJob.update(
      { lockedUntil: new Date(now.getTime() + this.lockMs) },
      { where: { id, finishedAt: null, failedAt: null, [Op.or]: [{ lockedUntil: null }, { lockedUntil: { [Op.lt]: now } }] } },
    )
    if (claimed !== 1) return undefined
    const row = await OutboxJob.findByPk(id)
    if (!row) return undefined
    return { id, name: row.name as JobName, data: JSON.parse(row.payload) as JobPayloads[JobName], attempt: row.attempts + 1, lane: row.lane ?? null }
  }

  private async handle(entry: OutboxEntry): Promise<void> {
    const { id, attempt } = entry
    try {
      await this.options.handle(entry)
      await OutboxJob.update({ finishedAt: new Date(), attempts: attempt, lockedUntil: null, payload: SCRUBBED }, { where: { id } })
    } catch (error) {
      if (error instanceof RetryLater) {
        // Not an attempt: the job waits its turn and keeps its count.
        await OutboxJob.update({ availableAt: new Date(Date.now() + error.delayMs), lockedUntil: null }, { where: { id } })
        // Its lane's other jobs would hear the same: they wait as long, unclaimed.
        if (entry.lane !== null) this.heldUntil.set(entry.lane, Math.max(this.heldUntil.get(entry.lane) ?? 0, Date.now() + error.delayMs))
        this.schedule(error.delayMs)
        return
      }
      const maxAttempts = this.options.maxAttempts?.(entry.name)
      if (maxAttempts !== undefined && attempt >= maxAttempts) {
        this.options.logger.error({ job: entry.name, err: error }, `Job ${entry.name} failed for good after ${attempt} attempt(s)`)
        await OutboxJob.update({ failedAt: new Date(), attempts: attempt, lockedUntil: null, payload: SCRUBBED }, { where: { id } })
        return
      }
      const delay = this.options.retryDelay(attempt, entry.name)
      const of = maxAttempts === undefined ? '' : `/${maxAttempts}`
      if (this.options.logRetries !== false) {
        this.options.logger.warn({ job: entry.name, err: error }, `Job ${entry.name} failed (attempt ${attempt}${of}), retrying in ${delay} ms`)
      }
      await OutboxJob.update({ availableAt: new Date(Date.now() + delay), attempts: attempt, lockedUntil: null }, { where: { id } })
      this.schedule(delay)
    }
  }
}
