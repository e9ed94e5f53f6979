import { readClient, readProviderUrl, type ProviderClientEnv } from '../oauth/public.js'
import type { FeatureConfig } from '../../kernel/index.js'

/** The provider's settings, as its object names them: read typed through `envOf` with it (public.ts). */
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
