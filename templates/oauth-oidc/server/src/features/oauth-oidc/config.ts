import { readClient, readProviderUrl, type ProviderClientEnv } from '../oauth/public.js'
import type { FeatureConfig } from '../../kernel/index.js'

declare module '../../config/env.js' {
  interface FeatureEnv {
    /** Any OpenID Connect provider, found by discovery at its issuer; null when not configured. */
    OAUTH_OIDC: (ProviderClientEnv & { issuer: string; name: string }) | null
  }
}

export const config: FeatureConfig = {
  env(read, fail, base) {
    const client = readClient(read, fail, 'OIDC')
    const issuer = read('OAUTH_OIDC_ISSUER')
    if (client && !issuer) fail('OAUTH_OIDC_ISSUER', 'is needed with OAUTH_OIDC_CLIENT_ID: the provider is found by discovery at its issuer.')
    if (!client || !issuer) return { OAUTH_OIDC: null }
    return {
      OAUTH_OIDC: {
        ...client,
        issuer: readProviderUrl(read, fail, base, 'OAUTH_OIDC_ISSUER', 'https://login.example.com'),
        name: read('OAUTH_OIDC_NAME') ?? 'Single sign-on',
      },
    }
  },
}
