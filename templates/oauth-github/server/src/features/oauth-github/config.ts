import { readClient, readProviderUrl, type ProviderClientEnv } from '../oauth/public.js'
import type { FeatureConfig } from '../../kernel/index.js'

declare module '../../config/env.js' {
  interface FeatureEnv {
    /** GitHub (or GitHub Enterprise), OAuth 2.0 and its REST API; null when not configured. */
    OAUTH_GITHUB: (ProviderClientEnv & { url: string; apiUrl: string }) | null
  }
}

export const config: FeatureConfig = {
  env(read, fail, base) {
    const client = readClient(read, fail, 'GITHUB')
    const url = readProviderUrl(read, fail, base, 'OAUTH_GITHUB_URL', 'https://github.com')
    const apiUrl = readProviderUrl(read, fail, base, 'OAUTH_GITHUB_API_URL', 'https://api.github.com')
    return { OAUTH_GITHUB: client ? { ...client, url, apiUrl } : null }
  },
}
