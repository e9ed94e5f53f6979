import type { Transaction } from 'sequelize'
import type { AuthConfig } from '../config/auth.js'
import type { Env } from '../config/env.js'
import type { Locale } from '../i18n/locales.js'
import type { FeatureJobs, UserLifecycle } from '../feature.js'
import type { Mailer } from '../mail/mailer.js'
import type { NoticePayload } from '../security/notices.js'
import type { AuthCache } from '../auth/auth-cache.js'
import type { Logger } from '../logger.js'
import type { BreakerPolicy } from '../webhooks/breaker.js'
import type { WebhookHub } from '../webhooks/hub.js'
/**
 * Jobs never carry a token, and a mail job only delivers: nothing usable sits in the outbox or
 * Redis, and a link voided after its request was accepted is never mailed. Where the request may
 * not look the account up (enumeration: every address gets the same work), the job carries the
 * address and `eventsUpTo` (the newest security event when it was accepted), and mints nothing if the user's links were voided since
 * (kernel/security/voided-since.ts). A registration also carries its name and bcrypt hash (never the
 * password), which its verification link will set. `locale`: the language of the request, for a
 * mail to an address whose account has none of its own (missing in jobs queued by an earlier version).
 */
export interface BaseJobPayloads {
  /** `register`: a registration of an address, new or not; `resend`: a new link was asked for. */
  'user:verify-email': ({ email: string; reason: 'register'; name: string; passwordHash: string } | { email: string; reason: 'resend'; eventsUpTo?: number }) & { locale?: Locale }
  /** `eventsUpTo` is missing only in jobs queued by an earlier version. */
  'user:reset-password': { email: string; eventsUpTo?: number; locale?: Locale }
  /**
   * An e-mail change of a signed-in user: the request made the pending row (kernel/services/email-change.ts);
   * the job mails both addresses while the row lives. `{userId, email}`: queued by an earlier
   * version, which minted in the job; such jobs mail nothing (the owner asks again).
   */
  'user:confirm-email': { tokenId: number; locale?: Locale } | { userId: number; email: string }
  /** A credential event's mail to the account (kernel/security/notices.ts). */
  'user:security-notice': NoticePayload
  /**
   * Deletes security events older than 90 days, webhook deliveries older than 30, and, with
   * verification required, accounts left unverified for 24 h with no pending registration;
   * queued every hour by the instances that run jobs.
   */
  'security:prune-events': Record<string, never>
  /**
   * One message to one webhook endpoint: the delivery row holds what is sent (kernel/webhooks/deliver.ts).
   * `endpointId` picks its outbox lane (`laneOf`); missing in jobs queued by an earlier version.
   */
  'webhook:deliver': { deliveryId: number; endpointId?: number }
}

/**
 * Every job of the app: base's, and the feature layers', whose payloads the kernel does not know
 * (a layer's are its handlers' parameters: its `jobs`, kernel/feature.ts `JobPayloadsOf`; it
 * dispatches them through kernel/own-settings.ts `jobDispatcher`, typed by them).
 */
export type JobPayloads = BaseJobPayloads & { readonly [name: `${string}:${string}`]: unknown }

export type JobName = keyof JobPayloads

/**
 * The handlers the queue runs: the kernel's own, and every slice's by their names (base's slices
 * handle the mail of their flows: `user:verify-email`, `user:reset-password`, `user:confirm-email`).
 */
export type JobHandlers = KernelJobHandlers & FeatureJobs

/** What job handlers are given, base's and the feature layers' (their manifest's `jobs`). */
export interface JobDeps {
  env: Env
  auth: AuthConfig
  mailer: Mailer
  authCache: Pick<AuthCache, 'userChanged'>
  /** What the layers do when a job creates a user (kernel/services/users.ts `createUser`). */
  features: UserLifecycle
  logger: Logger
  webhooks: WebhookHub
  /** How often a webhook message is tried before it is marked failed. */
  webhookRetry: RetryPolicy
  /** When a failing webhook endpoint is paused (kernel/webhooks/breaker.ts). */
  webhookBreaker: BreakerPolicy
}

/** Base's jobs, each as its handler takes it: a slice's (`jobs`) or the kernel's. */
export type BaseJobHandlers = { [K in keyof BaseJobPayloads]: (data: BaseJobPayloads[K]) => Promise<void> }

/**
 * The jobs the kernel itself runs (kernel/jobs/handlers.ts): a credential event's notice, the
 * hourly pruning and a webhook's delivery, which the kernel's own parts queue (the security core,
 * the scheduler in create-context.ts, the webhook hub and its outbox lane).
 */
export type KernelJobHandlers = Pick<BaseJobHandlers, 'user:security-notice' | 'security:prune-events' | 'webhook:deliver'>

export interface JobQueue {
  readonly driver: 'redis' | 'in-process'
  /** In `transaction`: the job is stored with the write that promised it, or not at all. */
  dispatch<K extends JobName>(name: K, data: JobPayloads[K], transaction?: Transaction): Promise<void>
  /** Stops taking jobs and waits for the running ones. */
  close(): Promise<void>
}

export interface RetryPolicy {
  attempts: number
  /** First retry delay; each further retry doubles it. */
  backoffMs: number
  /** The longest wait between two attempts. */
  maxBackoffMs?: number
}

/**
 * 12 attempts, 2 s doubling up to 5 minutes between them: about 25 minutes of retries, so mail
 * accepted during an SMTP outage of that length is still delivered once SMTP is back.
 */
export const defaultRetryPolicy: RetryPolicy = { attempts: 12, backoffMs: 2000, maxBackoffMs: 300_000 }

/**
 * Webhooks: 17 attempts, 10 s doubling up to 4 hours between them, about 26 hours in all: a
 * receiver down for a day still gets every message (Standard Webhooks asks for about that).
 */
export const webhookRetryPolicy: RetryPolicy = { attempts: 17, backoffMs: 10_000, maxBackoffMs: 4 * 3600_000 }

/** The policy of each job: `default`, unless the job has its own. */
export type RetryPolicies = { default: RetryPolicy } & Partial<Record<JobName, RetryPolicy>>

export const retryPolicyOf = (policies: RetryPolicies, name: string): RetryPolicy => policies[name as JobName] ?? policies.default

/**
 * Thrown by a handler that cannot start its work now (a webhook endpoint already busy): the job
 * comes back after `delayMs` without counting as an attempt.
 */
export class RetryLater extends Error {
  constructor(readonly delayMs: number) {
    super(`Retry in ${delayMs} ms`)
    this.name = 'RetryLater'
  }
}

/**
 * The outbox lane of a job (kernel/jobs/outbox.ts): each webhook endpoint has its own, claimed a few
 * messages at a time, so that no receiver, however slow or silent, holds back the app's mail or
 * another endpoint's messages; every other job shares the lane null.
 */
export function laneOf<K extends JobName>(name: K, data: JobPayloads[K]): string | null {
  const jobName: string = name
  if (jobName !== 'webhook:deliver') return null
  const { endpointId } = data as JobPayloads['webhook:deliver']
  return endpointId === undefined ? 'webhook' : `webhook:${endpointId}`
}

/** The wait after the n-th failed attempt (n from 1). */
export const retryDelay = (retry: RetryPolicy, attempt: number) =>
  Math.min(retry.backoffMs * 2 ** (attempt - 1), retry.maxBackoffMs ?? Number.POSITIVE_INFINITY)

export function runJob<K extends JobName>(handlers: JobHandlers, name: K, data: JobPayloads[K]): Promise<void> {
  const handler = handlers[name] as ((payload: JobPayloads[K]) => Promise<void>) | undefined
  if (!handler) throw new Error(`Unknown job "${String(name)}"`)
  return handler(data)
}
