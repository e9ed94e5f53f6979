import { readClient, readProviderUrl, type ProviderClientEnv } from '../../env.js'
import type { FeatureConfig } from '../../../../kernel/index.js'

/** The provider's settings, as its object names them: read typed through `envOf` with it. Shipped into oauth's folder with the provider's code, so that oauth reads it without importing the provider's slice, which stands on oauth's. */
export const config = {
  env: {
    /** Google, OpenID Connect at its issuer; null when not configured. */
    OAUTH_GOOGLE(read, fail, base): (ProviderClientEnv & { issuer: string }) | null {
      const client = readClient(read, fail, 'GOOGLE')
      const issuer = readProviderUrl(read, fail, base, 'OAUTH_GOOGLE_ISSUER', 'https://accounts.google.com')
      return client ? { ...client, issuer } : null
    },
  },
} as const satisfies FeatureConfig
