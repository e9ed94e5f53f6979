import type { FeatureConfig } from '../../kernel/index.js'

const minute = 60_000

/**
 * The layer's settings, as its object names them: read typed through `rateLimitsOf` with it.
 * `RATE_LIMIT_API_KEY` overrides the limit, as `RATE_LIMIT_<NAME>` does any named limit
 * (kernel/config/rate-limits.ts).
 */
export const config = {
  rateLimits: {
    /** Requests per API key, whatever their route (authenticator.ts): a leaked key cannot flood the app. */
    apiKey: { limit: 600, windowMs: minute },
  },
} as const satisfies FeatureConfig
