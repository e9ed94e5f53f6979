import type { FeatureConfig } from '../../kernel/index.js'

const minute = 60_000

/** The layer's settings, as its object names them: read typed through `envOf`, `rateLimitsOf` and `cookieNamesOf` with it. */
export const config = {
  /** ENCRYPTION_KEY encrypts two-factor secrets at rest (kernel/security/encryption.ts, its own key). */
  secrets: ['ENCRYPTION_KEY'],
  rateLimits: {
    /** Wrong two-factor codes per user and IP, across challenges (each challenge also dies after 5). */
    twoFactorPerUserIp: { limit: 5, windowMs: minute },
    /** Wrong two-factor codes per IP, across users. */
    twoFactorPerIp: { limit: 100, windowMs: minute },
  },
  cookies: {
    /** The pending two-factor challenge between the password step and the code (services/challenges.ts). */
    twoFactor: '2fa',
  },
} as const satisfies FeatureConfig
