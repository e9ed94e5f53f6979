import type { AppContext } from '../../src/kernel/context.js'
import { OutboxJob } from '../../src/kernel/models/index.js'
import { within } from './requests.js'

/** Waits until every job the app queued is done, so what the SMTP server holds is all there will be. */
export async function jobsDone(ctx: Pick<AppContext, 'keyPrefix'>): Promise<void> {
  await within(10_000, async () => (await OutboxJob.count({ where: { queue: ctx.keyPrefix, finishedAt: null, failedAt: null } })) === 0)
}
