import { readClient, readProviderUrl, type ProviderClientEnv } from '../oauth/public.js'
import type { FeatureConfig } from '../../kernel/index.js'

declare module '../../config/env.js' {
  interface FeatureEnv {
    /** Google, OpenID Connect at its issuer; null when not configured. */
    OAUTH_GOOGLE: (ProviderClientEnv & { issuer: string }) | null
  }
}

export const config: FeatureConfig = {
  env(read, fail, base) {
    const client = readClient(read, fail, 'GOOGLE')
    const issuer = readProviderUrl(read, fail, base, 'OAUTH_GOOGLE_ISSUER', 'https://accounts.google.com')
    return { OAUTH_GOOGLE: client ? { ...client, issuer } : null }
  },
}
