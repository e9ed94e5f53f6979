import type { FeatureConfig, Limit } from '../../kernel/index.js'

declare module '../../config/env.js' {
  interface FeatureSecrets {
    /** Encrypts two-factor secrets at rest (security/encryption.ts, its own key). */
    ENCRYPTION_KEY: string
  }
}

declare module '../../config/rate-limits.js' {
  interface FeatureRateLimits {
    /** Wrong two-factor codes per user and IP, across challenges (each challenge also dies after 5). */
    twoFactorPerUserIp: Limit
    /** Wrong two-factor codes per IP, across users. */
    twoFactorPerIp: Limit
  }
}

declare module '../../services/cookies.js' {
  interface FeatureCookieNames {
    /** The pending two-factor challenge between the password step and the code (features/two-factor/services/challenges.ts). */
    twoFactor: string
  }
}

const minute = 60_000

export const config: FeatureConfig = {
  secrets: ['ENCRYPTION_KEY'],
  rateLimits: {
    twoFactorPerUserIp: { limit: 5, windowMs: minute },
    twoFactorPerIp: { limit: 100, windowMs: minute },
  },
  cookies: { twoFactor: '2fa' },
}
