import { pruneAbandonedAccounts } from '../services/email-verification.js'
import { pruneSecurityEvents } from '../security/activity.js'
import { sendSecurityNotice } from '../security/notices.js'
import { webhookDelivery } from '../webhooks/deliver.js'
import { pruneWebhookDeliveries } from '../webhooks/prune.js'
import type { FeatureJobs, JobHandler } from '../feature.js'
import type { JobDeps, JobHandlers, KernelJobHandlers } from './types.js'

/** The kernel's own job handlers, and every slice's (`jobs`), by name. */
export function createJobHandlers(deps: JobDeps, features: readonly { jobs?: (deps: JobDeps) => FeatureJobs }[]): JobHandlers {
  const slices: Record<`${string}:${string}`, JobHandler> = {}
  for (const feature of features) Object.assign(slices, feature.jobs?.(deps))
  return { ...kernelJobHandlers(deps), ...slices }
}

function kernelJobHandlers(deps: JobDeps): KernelJobHandlers {
  const { env } = deps
  return {
    async 'user:security-notice'(notice) {
      await sendSecurityNotice(deps, notice)
    },

    async 'security:prune-events'() {
      await pruneSecurityEvents()
      await pruneWebhookDeliveries()
      if (deps.auth.requireEmailVerification) await pruneAbandonedAccounts(deps)
    },

    'webhook:deliver': webhookDelivery({ env, logger: deps.logger, webhooks: deps.webhooks, retry: deps.webhookRetry, breaker: deps.webhookBreaker }),
  }
}
