import type { FeatureConfig } from '../../kernel/index.js'

const minute = 60_000

/** The layer's settings, as its object names them: read typed through `rateLimitsOf` and `cookieNamesOf` with it. */
export const config = {
  rateLimits: {
    /** Provider sign-ins started per IP: each stores a pending flow, and anyone may start one. */
    oauthStartPerIp: { limit: 30, windowMs: minute },
    /** Provider answers per IP: each costs a request to the provider. */
    oauthCallbackPerIp: { limit: 30, windowMs: minute },
  },
  cookies: {
    /** The state, nonce and PKCE verifier of a provider sign-in under way (services/flows.ts). */
    oauth: 'oauth',
  },
} as const satisfies FeatureConfig
