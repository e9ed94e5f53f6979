import type { FeatureConfig } from '../../kernel/index.js'

const minute = 60_000

/** The layer's settings, as its object names them: read typed through `envOf` and `rateLimitsOf` with it. */
export const config = {
  rateLimits: {
    /** Requests per API key, whatever their route (services/key-limit.ts): a leaked key cannot flood the app. */
    apiKey: { limit: 600, windowMs: minute },
  },
  env: {
    /** Requests a minute per API key, when set in the environment: wins over the default (600). */
    RATE_LIMIT_API_KEY(read, fail): number | undefined {
      const text = read('RATE_LIMIT_API_KEY')
      if (text === undefined) return undefined
      const limit = /^\d{1,9}$/.test(text) ? Number(text) : 0
      if (limit < 1) fail('RATE_LIMIT_API_KEY', `"${text}" is not a whole number of requests a minute such as 600.`)
      return limit
    },
  },
} as const satisfies FeatureConfig
