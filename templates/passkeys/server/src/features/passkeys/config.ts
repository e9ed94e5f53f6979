import type { FeatureConfig } from '../../kernel/index.js'

const minute = 60_000
const HOST_NAME = /^(?=.{1,253}$)[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?(\.[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)*$/

/** The layer's settings, as its object names them: read typed through `envOf`, `rateLimitsOf` and `cookieNamesOf` with it. */
export const config = {
  rateLimits: {
    /** Passkey sign-in ceremonies started per IP: each stores a challenge, and anyone may start one. */
    passkeyOptionsPerIp: { limit: 60, windowMs: minute },
    /** Failed passkey sign-ins per IP. */
    passkeySignInPerIp: { limit: 30, windowMs: minute },
  },
  cookies: {
    /** The challenge of a passkey sign-in under way (services/challenges.ts). */
    webauthn: 'webauthn',
  },
  env: {
    /** The relying party id passkeys are bound to: BASE_URL's host name, or a parent domain of it. */
    RP_ID(read, fail, base): string {
      const host = new URL(base.BASE_ORIGIN).hostname
      const rpId = read('RP_ID')?.toLowerCase() ?? host
      // A browser creates and uses a passkey only for its page's host or a parent domain of it: any
      // other RP_ID would let the app start and then fail every ceremony.
      if (!HOST_NAME.test(rpId)) fail('RP_ID', `"${rpId}" is not a host name such as example.com (no scheme, port or path).`)
      else if (host !== rpId && !host.endsWith(`.${rpId}`)) {
        fail('RP_ID', `"${rpId}" is neither BASE_URL's host name (${host}) nor a parent domain of it, so browsers would refuse every passkey.`)
      }
      return rpId
    },
  },
} as const satisfies FeatureConfig
