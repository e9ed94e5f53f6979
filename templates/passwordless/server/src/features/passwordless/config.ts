import type { FeatureConfig } from '../../kernel/index.js'

const minute = 60_000

/**
 * The layer's settings, as its object names them: read typed through `envOf`, `rateLimitsOf` and
 * `cookieNamesOf` with it. Each limit is overridden by `RATE_LIMIT_<NAME>`
 * (`RATE_LIMIT_EMAIL_SIGN_IN_CODE_PER_ADDRESS`), as any named limit is.
 */
export const config = {
  rateLimits: {
    /** Sign-in mails asked for per IP, per address and IP over a minute and over an hour. */
    emailSignInPerIp: { limit: 30, windowMs: minute },
    emailSignInPerEmailIp: { limit: 5, windowMs: minute },
    emailSignInPerEmailIpHourly: { limit: 10, windowMs: 60 * minute },
    /** Wrong codes for one address from anywhere: past it, no code of that address is looked at (the lockout). */
    emailSignInCodePerAddress: { limit: 10, windowMs: 15 * minute },
    /** Wrong codes and links per IP, across addresses. */
    emailSignInWrongPerIp: { limit: 100, windowMs: minute },
    /** The asking page's polls per IP: one every few seconds per waiting browser, several behind one address. */
    emailSignInPollPerIp: { limit: 300, windowMs: minute },
  },
  cookies: {
    /** Binds a sign-in mail to the browser that asked for it (services/binding.ts). */
    emailSignIn: 'email_sign_in',
  },
  env: {
    /** `true`: an address without an account gets one the first time its link or code is used. */
    PASSWORDLESS_SIGN_UP: (read, fail) => {
      const value = read('PASSWORDLESS_SIGN_UP')
      if (value === undefined || value === 'false') return false
      if (value === 'true') return true
      fail('PASSWORDLESS_SIGN_UP', `"${value}" is not true or false.`)
      return false
    },
  },
} as const satisfies FeatureConfig
