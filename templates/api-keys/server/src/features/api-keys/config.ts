import type { FeatureConfig, Limit } from '../../kernel/index.js'

declare module '../../kernel/config/env.js' {
  interface FeatureEnv {
    /** Requests a minute per API key, when set in the environment: wins over the default (600). */
    RATE_LIMIT_API_KEY: number | undefined
  }
}

declare module '../../kernel/config/rate-limits.js' {
  interface FeatureRateLimits {
    /** Requests per API key, whatever their route (authenticator.ts): a leaked key cannot flood the app. */
    apiKey: Limit
  }
}

const minute = 60_000

// `RATE_LIMIT_API_KEY` is the kernel's override of the limit named `apiKey` (kernel/config/rate-limits.ts).
export const config: FeatureConfig = {
  rateLimits: {
    apiKey: { limit: 600, windowMs: minute },
  },
}
