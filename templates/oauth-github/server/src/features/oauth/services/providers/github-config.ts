import { readClient, readProviderUrl, type ProviderClientEnv } from '../../env.js'
import type { FeatureConfig } from '../../../../kernel/index.js'

/** The provider's settings, as its object names them: read typed through `envOf` with it. Shipped into oauth's folder with the provider's code, so that oauth reads it without importing the provider's slice, which stands on oauth's. */
export const config = {
  env: {
    /** GitHub (or GitHub Enterprise), OAuth 2.0 and its REST API; null when not configured. */
    OAUTH_GITHUB(read, fail, base): (ProviderClientEnv & { url: string; apiUrl: string }) | null {
      const client = readClient(read, fail, 'GITHUB')
      const url = readProviderUrl(read, fail, base, 'OAUTH_GITHUB_URL', 'https://github.com')
      const apiUrl = readProviderUrl(read, fail, base, 'OAUTH_GITHUB_API_URL', 'https://api.github.com')
      return client ? { ...client, url, apiUrl } : null
    },
  },
} as const satisfies FeatureConfig
