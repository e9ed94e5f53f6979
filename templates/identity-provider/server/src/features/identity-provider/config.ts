import type { FeatureConfig } from '../../kernel/index.js'

const minute = 60_000

/**
 * The layer's settings. ENCRYPTION_KEY seals the private parts of the signing keys at rest
 * (kernel/security/encryption.ts, a purpose of their own), and the rate limit holds the token
 * endpoint, where a client's secret or a code would otherwise be guessed.
 */
export const config = {
  secrets: ['ENCRYPTION_KEY'],
  /** oidc-provider's own cookies (services/provider.ts), named like the app's. */
  cookies: { oidcSession: 'oidc_session', oidcInteraction: 'oidc_interaction' },
  rateLimits: {
    /** Requests to the token endpoint per address (`RATE_LIMIT_TOKEN_ENDPOINT_PER_IP`). */
    tokenEndpointPerIp: { limit: 300, windowMs: minute },
  },
} as const satisfies FeatureConfig
