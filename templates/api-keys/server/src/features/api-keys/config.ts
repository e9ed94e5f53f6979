import type { FeatureConfig, Limit } from '../../kernel/index.js'

declare module '../../config/env.js' {
  interface FeatureEnv {
    /** Requests a minute per API key, when set in the environment: wins over the default (600). */
    RATE_LIMIT_API_KEY: number | undefined
  }
}

declare module '../../config/rate-limits.js' {
  interface FeatureRateLimits {
    /** Requests per API key, whatever their route (services/key-limit.ts): a leaked key cannot flood the app. */
    apiKey: Limit
  }
}

const minute = 60_000

export const config: FeatureConfig = {
  rateLimits: {
    apiKey: { limit: 600, windowMs: minute },
  },
  env(read, fail) {
    const text = read('RATE_LIMIT_API_KEY')
    if (text === undefined) return { RATE_LIMIT_API_KEY: undefined }
    const limit = /^\d{1,9}$/.test(text) ? Number(text) : 0
    if (limit < 1) fail('RATE_LIMIT_API_KEY', `"${text}" is not a whole number of requests a minute such as 600.`)
    return { RATE_LIMIT_API_KEY: limit }
  },
}
