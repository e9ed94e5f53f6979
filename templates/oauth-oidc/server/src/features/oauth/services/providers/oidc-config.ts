import { readClient, readProviderUrl, type ProviderClientEnv } from '../../env.js'
import type { FeatureConfig } from '../../../../kernel/index.js'

/** The provider's settings, as its object names them: read typed through `envOf` with it. Shipped into oauth's folder with the provider's code, so that oauth reads it without importing the provider's slice, which stands on oauth's. */
export const config = {
  env: {
    /** Any OpenID Connect provider, found by discovery at its issuer; null when not configured. */
    OAUTH_OIDC(read, fail, base): (ProviderClientEnv & { issuer: string; name: string }) | null {
      const client = readClient(read, fail, 'OIDC')
      const issuer = read('OAUTH_OIDC_ISSUER')
      if (client && !issuer) fail('OAUTH_OIDC_ISSUER', 'is needed with OAUTH_OIDC_CLIENT_ID: the provider is found by discovery at its issuer.')
      if (!client || !issuer) return null
      return {
        ...client,
        issuer: readProviderUrl(read, fail, base, 'OAUTH_OIDC_ISSUER', 'https://login.example.com'),
        name: read('OAUTH_OIDC_NAME') ?? 'Single sign-on',
      }
    },
  },
} as const satisfies FeatureConfig
