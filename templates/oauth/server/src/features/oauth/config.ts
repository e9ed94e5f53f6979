import type { FeatureConfig, Limit } from '../../kernel/index.js'

declare module '../../config/rate-limits.js' {
  interface FeatureRateLimits {
    /** Provider sign-ins started per IP: each stores a pending flow, and anyone may start one. */
    oauthStartPerIp: Limit
    /** Provider answers per IP: each costs a request to the provider. */
    oauthCallbackPerIp: Limit
  }
}

declare module '../../services/cookies.js' {
  interface FeatureCookieNames {
    /** The state, nonce and PKCE verifier of a provider sign-in under way (features/oauth/services/flows.ts). */
    oauth: string
  }
}

const minute = 60_000

export const config: FeatureConfig = {
  rateLimits: {
    oauthStartPerIp: { limit: 30, windowMs: minute },
    oauthCallbackPerIp: { limit: 30, windowMs: minute },
  },
  cookies: { oauth: 'oauth' },
}
