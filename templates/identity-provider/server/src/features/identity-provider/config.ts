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
    /** Clients that may register themselves per address in an hour, when registration is open (`RATE_LIMIT_CLIENT_REGISTRATION_PER_IP`). */
    clientRegistrationPerIp: { limit: 10, windowMs: 60 * minute },
  },
  env: {
    /**
     * `open`: anyone may register a public client at `/oauth2/reg` (RFC 7591), as MCP clients and
     * agents do; `off` (the default): only admins register clients.
     */
    OAUTH_PROVIDER_REGISTRATION(read, fail): 'open' | 'off' {
      const text = read('OAUTH_PROVIDER_REGISTRATION')?.toLowerCase() ?? 'off'
      if (text === 'open' || text === 'off') return text
      fail('OAUTH_PROVIDER_REGISTRATION', `"${text}" is not open or off.`)
      return 'off'
    },
  },
} as const satisfies FeatureConfig
