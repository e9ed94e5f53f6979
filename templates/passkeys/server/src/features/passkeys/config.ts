import type { FeatureConfig, Limit } from '../../kernel/index.js'

declare module '../../config/env.js' {
  interface FeatureEnv {
    /** The relying party id passkeys are bound to: BASE_URL's host name, or a parent domain of it. */
    RP_ID: string
  }
}

declare module '../../config/rate-limits.js' {
  interface FeatureRateLimits {
    /** Passkey sign-in ceremonies started per IP: each stores a challenge, and anyone may start one. */
    passkeyOptionsPerIp: Limit
    /** Failed passkey sign-ins per IP. */
    passkeySignInPerIp: Limit
  }
}

declare module '../../services/cookies.js' {
  interface FeatureCookieNames {
    /** The challenge of a passkey sign-in under way (features/passkeys/services/challenges.ts). */
    webauthn: string
  }
}

const minute = 60_000
const HOST_NAME = /^(?=.{1,253}$)[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?(\.[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)*$/

export const config: FeatureConfig = {
  rateLimits: {
    passkeyOptionsPerIp: { limit: 60, windowMs: minute },
    passkeySignInPerIp: { limit: 30, windowMs: minute },
  },
  cookies: { webauthn: 'webauthn' },
  env(read, fail, base) {
    const host = new URL(base.BASE_ORIGIN).hostname
    const rpId = read('RP_ID')?.toLowerCase() ?? host
    // A browser creates and uses a passkey only for its page's host or a parent domain of it: any
    // other RP_ID would let the app start and then fail every ceremony.
    if (!HOST_NAME.test(rpId)) fail('RP_ID', `"${rpId}" is not a host name such as example.com (no scheme, port or path).`)
    else if (host !== rpId && !host.endsWith(`.${rpId}`)) {
      fail('RP_ID', `"${rpId}" is neither BASE_URL's host name (${host}) nor a parent domain of it, so browsers would refuse every passkey.`)
    }
    return { RP_ID: rpId }
  },
}
