import { paths } from '../paths.js'
import { authConfig, type AuthConfig } from './auth.js'
import type { Env } from './env.js'
import type { FeatureConfig } from '../feature.js'
import { defaultRateLimits, type RateLimitSettings, withRateLimitVariables } from './rate-limits.js'

/**
 * What the app runs with, as plain data: read or derived once at start-up, never a connection.
 * The live clients built from it are `AppServices` (kernel/context.ts).
 */
export interface AppSettings {
  env: Env
  /** The feature layers, as settings read them (their config); the context carries them whole. */
  features: readonly { config?: FeatureConfig }[]
  auth: AuthConfig
  rateLimits: RateLimitSettings
  /** Namespace of every Redis key of this app: sessions, rate limits, jobs. */
  keyPrefix: string
  /** Built client served by the production server. */
  clientDir: string
}

/** The environment, and what a test (or another entry point) overrides of the defaults. */
export interface AppSettingsOptions {
  env: Env
  features: AppSettings['features']
  auth?: Partial<AuthConfig>
  keyPrefix?: string
  rateLimits?: Partial<RateLimitSettings>
  clientDir?: string
}

export function createAppSettings(options: AppSettingsOptions): AppSettings {
  const { env } = options
  const auth = { ...authConfig, ...options.auth }
  return {
    env,
    features: options.features,
    auth,
    rateLimits: withRateLimitVariables({ ...defaultRateLimits(options.features), ...options.rateLimits }, env),
    keyPrefix: options.keyPrefix ?? env.REDIS_PREFIX ?? `${auth.name}:`,
    clientDir: options.clientDir ?? paths.client,
  }
}
