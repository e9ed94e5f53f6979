import type { FeatureConfig } from '../feature.js'
import type { Limit } from './limit.js'

// Rate-limit settings: the defaults the app runs with; tests override them per app.
export type { Limit } from './limit.js'

/**
 * Base's limits. `ctx.rateLimits` also holds each feature layer's (named, with their defaults, in
 * its `config.ts`): a slice reads its own through kernel/own-settings.ts `rateLimitsOf`.
 */
export interface RateLimitSettings {
  /** Failed logins per lowercased e-mail and IP; a successful login clears the counter. */
  loginPerEmailIp: Limit
  /** Failed logins per IP, across e-mails (password spraying). */
  loginPerIp: Limit
  registerPerIp: Limit
  /**
   * Registrations per lowercased e-mail and IP, over a minute and over an hour. Per address alone,
   * a stranger's requests would use up the owner's own quota (each one mails the address).
   */
  registerPerEmailIp: Limit
  registerPerEmailIpHourly: Limit
  /** forgot-password and resend-verification, each counted separately. */
  mailPerIp: Limit
  /**
   * Per lowercased e-mail and IP, over a minute and over an hour: an address is mailed a bounded
   * number of times per client, and a stranger's requests cannot keep its owner's at 429.
   */
  mailPerEmailIp: Limit
  mailPerEmailIpHourly: Limit
  /** New guest sessions (a write without a session cookie) per IP: an anonymous client cannot fill Redis. */
  sessionCreatePerIp: Limit
  /**
   * Wrong passwords and confirmations on the password-checked account routes, per session; once
   * over, every such request of that session is a 429. Per user alone, a stolen session could
   * keep its owner's own password change at 429.
   */
  accountPasswordPerSession: Limit
  /** The same per user, across its sessions: looser, so that many sessions do not multiply the guesses without end. */
  accountPasswordPerUser: Limit
  /**
   * Mails to one address, whoever asks and from wherever, over 10 minutes and over an hour
   * (kernel/services/mail-quota.ts): past them a route answers as usual and mails nothing.
   */
  mailPerAddress: Limit
  mailPerAddressHourly: Limit
  /** E-mail change requests per user (each mails two addresses). */
  emailChangePerUser: Limit
  /** Writes to the signed-in user's own account (each may store a row: a ceremony, a flow, a pending secret), per user. */
  accountWritesPerUser: Limit
}

const minute = 60_000
const hour = 60 * minute

/** The limits an app runs with: base's, and the feature layers' defaults. */
export function defaultRateLimits(features: readonly { config?: FeatureConfig }[]): RateLimitSettings {
  const limits: RateLimitSettings = {
    loginPerEmailIp: { limit: 5, windowMs: minute },
    loginPerIp: { limit: 100, windowMs: minute },
    registerPerIp: { limit: 20, windowMs: minute },
    registerPerEmailIp: { limit: 5, windowMs: minute },
    registerPerEmailIpHourly: { limit: 10, windowMs: hour },
    mailPerIp: { limit: 30, windowMs: minute },
    mailPerEmailIp: { limit: 5, windowMs: minute },
    mailPerEmailIpHourly: { limit: 10, windowMs: hour },
    mailPerAddress: { limit: 3, windowMs: 10 * minute },
    mailPerAddressHourly: { limit: 5, windowMs: hour },
    sessionCreatePerIp: { limit: 30, windowMs: minute },
    accountPasswordPerSession: { limit: 5, windowMs: minute },
    accountPasswordPerUser: { limit: 20, windowMs: minute },
    emailChangePerUser: { limit: 5, windowMs: minute },
    accountWritesPerUser: { limit: 60, windowMs: minute },
  }
  for (const feature of features) Object.assign(limits, feature.config?.rateLimits)
  return limits
}
