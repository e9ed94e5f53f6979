import type { FeatureConfig } from '../../kernel/index.js'

const minute = 60_000

/**
 * The layer's settings. ENCRYPTION_KEY seals the private parts of the signing keys at rest
 * (kernel/security/encryption.ts, a purpose of their own), and the rate limits hold the token and
 * device endpoints, where a client's secret or a code would otherwise be guessed.
 */
export const config = {
  secrets: ['ENCRYPTION_KEY'],
  /** oidc-provider's own cookies (services/provider.ts), named like the app's. */
  cookies: { oidcSession: 'oidc_session', oidcInteraction: 'oidc_interaction' },
  rateLimits: {
    /** Requests to the token endpoint per address (`RATE_LIMIT_TOKEN_ENDPOINT_PER_IP`). */
    tokenEndpointPerIp: { limit: 300, windowMs: minute },
    /** Device codes a person may type per address (`RATE_LIMIT_DEVICE_CODE_PER_IP`): guessing one is signing in as its device. */
    deviceCodePerIp: { limit: 30, windowMs: minute },
  },
} as const satisfies FeatureConfig
