// The type of an extension point (features/types/<point>.ts, filled by features/<layer>/<point>.ts).
import type { Limit } from '../../config/limit.js'

/** What a layer's variables may depend on, as config/env.ts has read them (spelled out here: importing env.ts would close a cycle). */
export interface EnvBasics {
  NODE_ENV: 'development' | 'production' | 'test'
  BASE_URL: string
  BASE_ORIGIN: string
}

/** `config.ts`: settings read at start-up. Plain data: it imports nothing of the app at run time. */
export interface FeatureConfig {
  /** Env variables holding secrets, checked like JWT_ACCESS_SECRET (declare them on `FeatureSecrets` too). */
  secrets?: string[]
  /** Default rate limits by name (declare the names on `FeatureRateLimits` too). */
  rateLimits?: Record<string, Limit>
  /** Cookie suffixes by name (declare the names on `FeatureCookieNames`): prefixed like the others, and CSRF-checked. */
  cookies?: Record<string, string>
  /**
   * Reads the layer's own environment variables (declare them on `FeatureEnv`): `read` gives a
   * variable's trimmed value (empty is unset), `fail` reports one bad variable, and start-up
   * stops with every line reported, as for base's.
   */
  env?(read: (name: string) => string | undefined, fail: (name: string, problem: string) => void, base: EnvBasics): object
}
