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

/** The variable that overrides a named limit: `loginPerEmailIp` → `RATE_LIMIT_LOGIN_PER_EMAIL_IP`, `apiKey` → `RATE_LIMIT_API_KEY`. */
export const rateLimitVariable = (name: string): `RATE_LIMIT_${string}` => `RATE_LIMIT_${name.replace(/([a-z0-9])([A-Z])/g, '$1_$2').toUpperCase()}`

/**
 * Reads `RATE_LIMIT_<NAME>` for every named limit, base's and the layers' (kernel/config/env.ts
 * calls it with its `read` and `fail`): a whole number of requests (at least 1) that replaces
 * the limit's count, its window kept. Unset: undefined, the default applies.
 */
export function readRateLimitVariables(
  features: readonly { config?: FeatureConfig }[],
  read: (name: string) => string | undefined,
  fail: (name: string, problem: string) => void,
): Record<`RATE_LIMIT_${string}`, number | undefined> {
  const values: Record<`RATE_LIMIT_${string}`, number | undefined> = {}
  for (const name of Object.keys(defaultRateLimits(features))) {
    const variable = rateLimitVariable(name)
    const text = read(variable)
    const count = text !== undefined && /^\d{1,9}$/.test(text) ? Number(text) : 0
    if (text !== undefined && count < 1) fail(variable, `"${text}" is not a whole number of requests such as 600.`)
    values[variable] = text === undefined ? undefined : count
  }
  return values
}

/** The limits with the counts set in the environment (`RATE_LIMIT_<NAME>`) over the defaults and a test's own. */
export function withRateLimitVariables(limits: RateLimitSettings, env: { readonly [name: `RATE_LIMIT_${string}`]: number | undefined }): RateLimitSettings {
  const result = { ...limits }
  for (const name of Object.keys(result)) {
    const count = env[rateLimitVariable(name)]
    if (typeof count === 'number') Reflect.set(result, name, { ...Reflect.get(result, name), limit: count })
  }
  return result
}
