import type { FeatureConfig } from '../features/types.js'
import type { Limit } from './limit.js'

// Rate-limit settings: the defaults the app runs with; tests override them per app.
export type { Limit } from './limit.js'

/** Feature layers declare their limits here (and give the defaults in their `config.ts`). */
export interface FeatureRateLimits {}

export interface RateLimitSettings extends FeatureRateLimits {
  /** Failed logins per lowercased e-mail and IP; a successful login clears the counter. */
  loginPerEmailIp: Limit
  /** Failed logins per IP, across e-mails (password spraying). */
  loginPerIp: Limit
  registerPerIp: Limit
  registerPerEmail: Limit
  /** forgot-password and resend-verification, each counted separately. */
  mailPerIp: Limit
  mailPerEmail: Limit
  /** New guest sessions (a write without a session cookie) per IP: an anonymous client cannot fill Redis. */
  sessionCreatePerIp: Limit
  /** Wrong passwords on the password-checked account routes, per user; once over, every such request is a 429. */
  accountPasswordPerUser: Limit
  /** E-mail change requests per user (each mails two addresses). */
  emailChangePerUser: Limit
}

const minute = 60_000

/** The limits an app runs with: base's, and the feature layers' defaults. */
export const defaultRateLimits = (features: readonly { config?: FeatureConfig }[]): RateLimitSettings => ({
  loginPerEmailIp: { limit: 5, windowMs: minute },
  loginPerIp: { limit: 100, windowMs: minute },
  registerPerIp: { limit: 20, windowMs: minute },
  registerPerEmail: { limit: 5, windowMs: minute },
  mailPerIp: { limit: 30, windowMs: minute },
  mailPerEmail: { limit: 5, windowMs: minute },
  sessionCreatePerIp: { limit: 30, windowMs: minute },
  accountPasswordPerUser: { limit: 5, windowMs: minute },
  emailChangePerUser: { limit: 5, windowMs: minute },
  ...(Object.assign({}, ...features.map((feature) => feature.config?.rateLimits)) as FeatureRateLimits),
})
